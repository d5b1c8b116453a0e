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

    /// Wraps a method name as given, or nil when it is not an RFC 9110 token (empty, or with
    /// spaces, CR, LF or separators), so no method can inject into a request line; use
    /// ``init(validating:)`` for an error that says why.
    public init?(rawValue: String) {
        guard !rawValue.isEmpty, rawValue.utf8.allSatisfy(HTTPMethod.isTokenByte) else { return nil }
        self.rawValue = rawValue
    }

    private init(token: String) { self.rawValue = token }

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
    public static let get = HTTPMethod(token: "GET")
    /// `POST`
    public static let post = HTTPMethod(token: "POST")
    /// `PUT`
    public static let put = HTTPMethod(token: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(token: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(token: "DELETE")
    /// `HEAD`
    public static let head = HTTPMethod(token: "HEAD")
    /// `OPTIONS`
    public static let options = HTTPMethod(token: "OPTIONS")

    /// The seven common methods, in the order help text lists them.
    public static let common: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .head, .options]

    /// The raw value, as typed.
    public var description: String { rawValue }

    /// Decodes from the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let method = HTTPMethod(rawValue: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: HTTPError.invalidMethod(text).localizedDescription)
        }
        self = method
    }

    /// Encodes as the plain form a cassette stores.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// RFC 9110 `tchar`: the one rule for methods and header names.
    ///
    /// One bit a byte (``tokenBytes``): a `switch` over the symbols cost more than the rest of
    /// a header name's check, for every byte of every name sent, served and recorded.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        tokenBytes.contains(byte)
    }

    /// The `tchar` bytes: letters, digits and `!#$%&'*+-.^_`|~`.
    static let tokenBytes = ASCIISet(low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
}
