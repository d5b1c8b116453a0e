import Foundation

/// A request body described by kind; ``encoded()`` turns it into bytes and a `Content-Type`.
///
/// ```swift
/// try request.setBody(.json(["name": "Ada", "age": 36]))
/// try request.setBody(.form([("q", "a&b"), ("lang", "en")]))
/// try request.setBody(.multipart([.file(name: "avatar", path: "me.png")]))
/// ```
public enum RequestBody: Sendable, Hashable {
    /// A JSON document, sent as `application/json`.
    case json(JSONValue)
    /// `application/x-www-form-urlencoded` fields, in order.
    case form([FormField])
    /// `multipart/form-data` parts with a boundary (``MultipartPart``).
    case multipart([MultipartPart], boundary: String = MultipartPart.makeBoundary())
    /// Raw bytes with an optional content type.
    case raw(Data, contentType: String?)
    /// Text sent as UTF-8 with an optional content type.
    case text(String, contentType: String?)
    /// The contents of a file; the content type defaults to one guessed from the extension.
    case file(path: String, contentType: String? = nil)

    /// A name/value pair of a urlencoded form.
    public struct FormField: Hashable, Sendable {
        /// The field name.
        public var name: String
        /// The field value.
        public var value: String
        /// Creates a field.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Shorthand for ``form(_:)`` from tuples.
    public static func form(_ pairs: [(String, String)]) -> RequestBody {
        .form(pairs.map { FormField($0.0, $0.1) })
    }

    /// The bytes and content type this body sends.
    public func encoded() throws(HTTPError) -> (data: Data, contentType: String?) {
        switch self {
        case .json(let value):
            let text: String = JSONWriter.write(value, options: [])
            return (Data(text.utf8), "application/json")
        case .form(let fields):
            return (Data(FormEncoding.encode(fields.map { ($0.name, $0.value) }).utf8),
                    "application/x-www-form-urlencoded")
        case .multipart(let parts, let boundary):
            return (try MultipartPart.encode(parts, boundary: boundary),
                    "multipart/form-data; boundary=\(boundary)")
        case .raw(let data, let contentType):
            return (data, contentType)
        case .text(let text, let contentType):
            return (Data(text.utf8), contentType ?? "text/plain; charset=utf-8")
        case .file(let path, let contentType):
            let data = try FileInput.read(path)
            let ext = (path as NSString).pathExtension
            return (data, contentType ?? MediaType.forFileExtension(ext))
        }
    }
}

/// One part of a `multipart/form-data` body.
public struct MultipartPart: Hashable, Sendable {
    /// The form field name.
    public var name: String
    /// The file name sent in `Content-Disposition`, for file parts.
    public var filename: String?
    /// The part's `Content-Type`, if any.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// Creates a part from bytes.
    public init(name: String, filename: String? = nil, contentType: String? = nil, data: Data) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.data = data
    }

    /// A plain text field.
    public static func field(name: String, value: String) -> MultipartPart {
        MultipartPart(name: name, data: Data(value.utf8))
    }

    /// A file part read from disk: file name from the path, content type from the extension
    /// unless given.
    public static func file(
        name: String, path: String, filename: String? = nil, contentType: String? = nil
    ) throws(HTTPError) -> MultipartPart {
        let data = try FileInput.read(path)
        let base = filename ?? (path as NSString).lastPathComponent
        let type = contentType ?? MediaType.forFileExtension((base as NSString).pathExtension)
        return MultipartPart(name: name, filename: base, contentType: type, data: data)
    }

    /// A random boundary that cannot plausibly occur in a part.
    public static func makeBoundary() -> String {
        "tapedeck-" + String(decoding: UUID().uuidString.utf8.filter { $0 != UInt8(ascii: "-") }, as: UTF8.self).lowercased()
    }

    /// Encodes parts with `boundary` as RFC 7578 multipart/form-data.
    static func encode(_ parts: [MultipartPart], boundary: String) throws(HTTPError) -> Data {
        var out = Data()
        for part in parts {
            if part.data.range(of: Data("--\(boundary)".utf8)) != nil {
                throw .invalidBody("multipart part '\(part.name)' contains the boundary '\(boundary)'; choose another boundary")
            }
            out.append(Data("--\(boundary)\r\n".utf8))
            var disposition = "Content-Disposition: form-data; name=\"\(quote(part.name))\""
            if let filename = part.filename { disposition += "; filename=\"\(quote(filename))\"" }
            out.append(Data((disposition + "\r\n").utf8))
            if let contentType = part.contentType {
                out.append(Data("Content-Type: \(contentType)\r\n".utf8))
            }
            out.append(Data("\r\n".utf8))
            out.append(part.data)
            out.append(Data("\r\n".utf8))
        }
        out.append(Data("--\(boundary)--\r\n".utf8))
        return out
    }

    private static func quote(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "\"", with: "%22")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG rules: space as `+`).
enum FormEncoding {
    /// Encodes pairs as `a=1&b=x+y`.
    static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// Decodes `a=1&b=x+y` into pairs, in order.
    static func decode(_ text: String) -> [(String, String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            return (name, value)
        }
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: " "): out.append("+")
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "*"):
                out.append(Character(Unicode.Scalar(byte)))
            default: out.append(PercentEncoding.hex(byte))
            }
        }
        return out
    }

    static func unescape(_ text: String) -> String {
        PercentEncoding.decode(text.replacingOccurrences(of: "+", with: " "))
    }
}

/// Reads `@file` inputs with errors that name the path.
package enum FileInput {
    /// The bytes of the file at `path` (`~` expanded).
    package static func read(_ path: String) throws(HTTPError) -> Data {
        let expanded = (path as NSString).expandingTildeInPath
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isDirectory) else {
            throw .fileUnreadable(path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw .fileUnreadable(path: path, reason: "it is a directory") }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: expanded))
        } catch {
            throw .fileUnreadable(path: path, reason: "permission denied or unreadable")
        }
    }
}
