import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat
import Yams

/// Decodes OpenAPI documents with OpenAPIKit; the two models share type names, so they meet only here.
enum OpenAPIDocumentReader {
    private struct VersionField: Decodable {
        var openapi: String
    }

    static func version(of text: String) throws -> String {
        try YAMLDecoder().decode(VersionField.self, from: text).openapi
    }

    static func read30(_ text: String) throws -> OpenAPIKit.OpenAPI.Document {
        try YAMLDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: text).convert(to: .v3_1_1)
    }

    static func read31(_ text: String) throws -> OpenAPIKit.OpenAPI.Document {
        try YAMLDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: text)
    }

    /// A one-line reason for a decoding error, naming the coding path when there is one.
    static func describe(_ error: any Error) -> String {
        if let openAPI = error as? OpenAPIKit.OpenAPI.Error { return openAPI.localizedDescription }
        if let decoding = error as? DecodingError {
            switch decoding {
            case .keyNotFound(let key, let context):
                return "missing \(key.stringValue) at \(where_(context))"
            // The YAML decoder hands on OpenAPIKit's own error under words of its own
            // ("The given data was not valid YAML."): the underlying one says what is wrong.
            case .dataCorrupted(let context) where context.underlyingError != nil:
                return context.underlyingError.map(describe) ?? "\(decoding)"
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                return "\(context.debugDescription) at \(where_(context))"
            @unknown default:
                return "\(decoding)"
            }
        }
        return "\(error)"
    }

    private static func where_(_ context: DecodingError.Context) -> String {
        let path = context.codingPath.map(\.stringValue).joined(separator: ".")
        return path.isEmpty ? "the top level" : path
    }
}
