import Foundation

/// One header field as sent or received: the name keeps the case it was given in.
public struct HTTPHeader: Hashable, Sendable, Codable {
    /// The field name, case preserved.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// Ordered header fields with case-insensitive lookup; repeated names are kept as separate entries.
///
/// ```swift
/// var headers: HTTPHeaders = ["Accept": "application/json"]
/// try headers.add(name: "Set-Cookie", value: "a=1")
/// try headers.add(name: "Set-Cookie", value: "b=2")
/// headers["accept"]             // "application/json"
/// headers.values(for: "set-cookie")  // ["a=1", "b=2"]
/// ```
public struct HTTPHeaders: Hashable, Sendable, Codable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields in order.
    public private(set) var fields: [HTTPHeader]

    /// Creates headers from fields, in order.
    public init(_ fields: [HTTPHeader] = []) { self.fields = fields }

    /// Creates headers from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        self.fields = pairs.map { HTTPHeader(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a literal, in order: `["Accept": "*/*"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Decodes from the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        fields = try decoder.singleValueContainer().decode([HTTPHeader].self)
    }

    /// Encodes as the plain form a cassette stores.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(fields)
    }

    /// Iterates the fields in order, repeated names included.
    public func makeIterator() -> IndexingIterator<[HTTPHeader]> { fields.makeIterator() }

    /// The number of fields, counting repeats.
    public var count: Int { fields.count }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// The first value for `name` (case-insensitive); setting replaces every field of that name.
    /// Setting does not validate (it cannot throw): ``APIClient`` and the live transports check
    /// every field before anything is sent (``HTTPRequest/validateForSending()``).
    public subscript(name: String) -> String? {
        get { fields.first { $0.name.caseInsensitiveEquals(name) }?.value }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends a field, keeping any existing ones with the same name; throws
    /// ``HTTPError/invalidHeaderName(_:)`` or ``HTTPError/invalidHeaderValue(name:value:)``
    /// for a name that is not a token or a value with CR, LF or NUL, so data from outside
    /// cannot inject a header.
    public mutating func add(name: String, value: String) throws(HTTPError) {
        try HTTPHeaders.validate(name: name)
        try HTTPHeaders.validate(value: value, name: name)
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Appends a field as received or read from a file, unchecked (a server's bytes are
    /// recorded as they came).
    package mutating func append(name: String, value: String) {
        fields.append(HTTPHeader(name: name, value: value))
    }

    /// Throws for the first field whose name or value could not be sent as given (see
    /// ``add(name:value:)``).
    public func validate() throws(HTTPError) {
        for field in fields {
            try HTTPHeaders.validate(name: field.name)
            try HTTPHeaders.validate(value: field.value, name: field.name)
        }
    }

    /// Replaces the first field named `name` in place and drops later ones, or appends.
    public mutating func replaceOrAdd(name: String, value: String) {
        if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
            fields[index] = HTTPHeader(name: name, value: value)
            var seen = false
            fields.removeAll { field in
                guard field.name.caseInsensitiveEquals(name) else { return false }
                defer { seen = true }
                return seen
            }
        } else {
            append(name: name, value: value)
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) {
        // Looked for first: removing nothing would still copy fields shared with another value.
        guard fields.contains(where: { $0.name.caseInsensitiveEquals(name) }) else { return }
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
    }

    /// Appends every field of `other`, replacing fields of the same names here.
    public mutating func merge(_ other: HTTPHeaders) {
        for name in Set(other.fields.map { $0.name.lowercased() }) { remove(name: name) }
        fields.append(contentsOf: other.fields)
    }

    /// Checks an RFC 9110 field name, so bad input fails before anything is sent.
    public static func validate(name: String) throws(HTTPError) {
        guard isToken(name) else { throw .invalidHeaderName(name) }
    }

    /// Checks a field value: no CR, LF or NUL.
    public static func validate(value: String, name: String) throws(HTTPError) {
        if holdsLineBreakOrNUL(value) { throw .invalidHeaderValue(name: name, value: value) }
    }

    // Every field of every answer served, proxied or recorded is checked, some twice: the bytes
    // are read where they are, with no call for each byte.

    /// Whether `text` is one or more `tchar` bytes (``HTTPMethod/tokenBytes``).
    static func isToken(_ text: String) -> Bool {
        let tokenBytes = HTTPMethod.tokenBytes
        func check(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard !bytes.isEmpty else { return false }
            for byte in bytes where !tokenBytes.contains(byte) { return false }
            return true
        }
        return ByteSearch.withBytes(of: text, check)
    }

    /// Whether `text` holds a CR, an LF or a NUL, eight bytes at a time.
    static func holdsLineBreakOrNUL(_ text: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            // Exact for whether some byte of `word` is zero (which byte, it may not say).
            func hasZeroByte(_ word: UInt64) -> Bool { (word &- ones) & ~word & (ones &* 0x80) != 0 }
            let raw = UnsafeRawBufferPointer(bytes)
            var index = 0
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                if hasZeroByte(word) || hasZeroByte(word ^ (ones &* 0x0A)) || hasZeroByte(word ^ (ones &* 0x0D)) { return true }
                index += 8
            }
            while index < bytes.count {
                let byte = bytes[index]
                if byte == 0x00 || byte == 0x0A || byte == 0x0D { return true }
                index += 1
            }
            return false
        }
        return ByteSearch.withBytes(of: text, scan)
    }
}

extension String {
    /// ASCII case-insensitive comparison, as header names need.
    /// Compares the bytes in place where both strings have them contiguous (native strings);
    /// walking the two UTF-8 views together cost a header look-up ten times more.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        let contiguous = a.withContiguousStorageIfAvailable { x in
            b.withContiguousStorageIfAvailable { y in
                for index in 0..<x.count where !Self.sameIgnoringASCIICase(x[index], y[index]) { return false }
                return true
            }
        }
        if let contiguous, let equal = contiguous { return equal }
        return zip(a, b).allSatisfy(Self.sameIgnoringASCIICase)
    }

    private static func sameIgnoringASCIICase(_ x: UInt8, _ y: UInt8) -> Bool {
        x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
    }
}
