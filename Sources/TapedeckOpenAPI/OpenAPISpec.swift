import Foundation
import Tapedeck
import Yams
import OpenAPIKit

/// An OpenAPI document read for checking cassettes: 3.1 as it is, 3.0 converted to the 3.1 model.
package struct OpenAPISpec: Sendable {
    /// The document, in OpenAPIKit's 3.1 model.
    package let document: OpenAPI.Document
    /// Where it was read from, for messages.
    package let path: String
    /// The `openapi` version the document declares (a 3.0 document is held in the 3.1 model).
    package let version: String

    /// Wraps a document already read; `version` defaults to the model's.
    package init(document: OpenAPI.Document, path: String, version: String? = nil) {
        self.document = document
        self.path = path
        self.version = version ?? document.openAPIVersion.rawValue
    }

    /// Reads a YAML or JSON OpenAPI 3.0 or 3.1 document from `url`; `name` (default: its path)
    /// names it in errors and findings.
    package static func load(_ url: URL, named name: String? = nil) throws(OpenAPISpecError) -> OpenAPISpec {
        let path = name ?? url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else { throw .unreadable(path: path, reason: "no such file") }
        if isDirectory.boolValue { throw .unreadable(path: path, reason: "it is a folder; give the document's file") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .unreadable(path: path, reason: "it is not UTF-8 text; save the document as UTF-8")
        }
        return try parse(text, path: path)
    }

    /// Reads a YAML or JSON OpenAPI 3.0 or 3.1 document from `text`; `path` names it in errors.
    package static func parse(_ text: String, path: String) throws(OpenAPISpecError) -> OpenAPISpec {
        // Decoding expands every alias: a document that would grow past the bound is refused
        // before any value is built (a few hundred bytes of nested aliases reach gigabytes).
        if let problem = YAMLExpansion.aliasKeyProblem(in: text, file: path) {
            throw .invalid(path: path, reason: problem)
        }
        if text.contains("*"), let node = try? Yams.compose(yaml: text), YAMLExpansion.exceeds(node) {
            throw .invalid(path: path, reason: YAMLExpansion.problem(in: text, file: path))
        }
        let version: String
        do {
            version = try OpenAPIDocumentReader.version(of: text)
        } catch {
            if let yaml = OpenAPISpecError.yamlError(in: error) { throw OpenAPISpecError(yaml: yaml, path: path, text: text) }
            throw .notOpenAPI(path: path, reason: OpenAPIDocumentReader.describe(error))
        }
        do {
            if version.hasPrefix("3.0") {
                return OpenAPISpec(document: try OpenAPIDocumentReader.read30(text), path: path, version: version)
            }
            if version.hasPrefix("3.1") || version.hasPrefix("3.2") {
                return OpenAPISpec(document: try OpenAPIDocumentReader.read31(text), path: path, version: version)
            }
        } catch {
            if let yaml = OpenAPISpecError.yamlError(in: error) { throw OpenAPISpecError(yaml: yaml, path: path, text: text) }
            throw .invalid(path: path, reason: OpenAPIDocumentReader.describe(error))
        }
        throw .unsupportedVersion(path: path, version: version)
    }

    /// The servers' URLs with their variables at their defaults
    /// (`https://{env}.example.com/v1` → `https://prod.example.com/v1`); relative ones stay relative.
    package var serverURLs: [URL] {
        document.servers.compactMap { server in
            var text = server.urlTemplate.absoluteString
            for (name, variable) in server.variables { text = text.replacingOccurrences(of: "{\(name)}", with: variable.default) }
            return URL(string: text)
        }
    }

    /// The path of each server URL (`/v1`), which prefixes every documented path on the wire;
    /// `percentEncoded` as a request sends it (`/caf%C3%A9`), else decoded.
    func basePaths(percentEncoded: Bool = false) -> [String] {
        serverURLs.compactMap { url in
            let full = url.path(percentEncoded: percentEncoded)
            let path = full.hasSuffix("/") ? String(full.dropLast()) : full
            return path.isEmpty ? nil : path
        }
    }
}

