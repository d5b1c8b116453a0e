import Foundation
import Tapedeck
import Yams

/// Why an OpenAPI document could not be used.
package enum OpenAPISpecError: Error, Sendable, Equatable, LocalizedError {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The file is not YAML or JSON with an `openapi` version field.
    case notOpenAPI(path: String, reason: String)
    /// The `openapi` version is not 3.0.x or 3.1.x.
    case unsupportedVersion(path: String, version: String)
    /// The document does not follow the OpenAPI schema.
    case invalid(path: String, reason: String)
    /// The document is not valid YAML or JSON at a place (a key written twice, a tab).
    case syntax(path: String, line: Int, column: Int, problem: String)

    package var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the OpenAPI document \(path): \(reason); check the file's path"
        case .notOpenAPI(let path, let reason):
            "\(path) is not an OpenAPI document (\(reason)); give a YAML or JSON file whose top level has `openapi: 3.x.y`"
        case .unsupportedVersion(let path, let version):
            "\(path) declares openapi: \(version); only OpenAPI 3.0.x and 3.1.x documents are supported"
        case .invalid(let path, let reason):
            "\(path) is not a valid OpenAPI document: \(reason); fix the document (a validator such as the Swagger editor names the place)"
        case .syntax(let path, let line, let column, let problem):
            "\(path):\(line):\(column): \(problem)"
        }
    }
}

extension OpenAPISpecError {
    /// The YAML error `error` is or wraps (the decoder hands it on as a `DecodingError`).
    static func yamlError(in error: any Error) -> YamlError? {
        if let yaml = error as? YamlError { return yaml }
        if case .dataCorrupted(let context) = error as? DecodingError, let underlying = context.underlyingError { return yamlError(in: underlying) }
        return nil
    }

    /// `error`, met reading `text` (the document at `path`), named by its place as a cassette's
    /// YAML error is (``YAMLCursor/syntaxError(_:file:text:)``); the document is never quoted.
    init(yaml error: YamlError, path: String, text: String) {
        switch YAMLCursor.syntaxError(error, file: path, text: text) {
        case let .syntax(_, line, column, problem): self = .syntax(path: path, line: line, column: column, problem: problem)
        case let other: self = .invalid(path: path, reason: other.errorDescription ?? "\(other)")
        }
    }
}
