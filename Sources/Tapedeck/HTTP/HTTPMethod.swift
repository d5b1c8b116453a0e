import Foundation

/// An HTTP request method: one of the common seven or any valid token.
///
/// ```swift
/// let method: HTTPMethod = .post
/// let purge = try HTTPMethod(validating: "PURGE")
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The method as sent on the wire, upper-cased for the common methods.
    public var rawValue: String

    /// Wraps a method name as given; use ``init(validating:)`` for user input.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Parses a user-typed method: the common methods in any case, or a custom RFC 9110 token.
    public init(validating input: String) throws(HTTPError) {
        let upper = input.uppercased()
        if HTTPMethod.common.contains(where: { $0.rawValue == upper }) {
            self.rawValue = upper
            return
        }
        guard !input.isEmpty, input.utf8.allSatisfy(HTTPMethod.isTokenByte) else {
            throw .invalidMethod(input)
        }
        self.rawValue = input
    }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `OPTIONS`
    public static let options = HTTPMethod(rawValue: "OPTIONS")

    /// The seven common methods, in the order help text lists them.
    public static let common: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options]

    /// Whether this is one of ``common``.
    public var isCommon: Bool { HTTPMethod.common.contains(self) }

    /// The raw value, as typed.
    public var description: String { rawValue }

    /// Decodes from the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes as the plain form a cassette stores.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
