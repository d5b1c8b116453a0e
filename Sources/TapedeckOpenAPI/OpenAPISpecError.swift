import Foundation

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
        }
    }
}
