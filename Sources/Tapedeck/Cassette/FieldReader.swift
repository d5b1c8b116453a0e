import Foundation

/// Reads typed fields out of a parsed cassette, naming the file and JSON Pointer of
/// anything missing or mistyped.
struct FieldReader {
    let value: JSONValue
    /// Where the value is; its JSON pointer text is built only when something asks (an error).
    let trail: PointerTrail
    let source: String

    /// A reader of `value` at `pointer` in the file `source`.
    init(value: JSONValue, pointer: String, source: String) {
        self.init(value: value, trail: .root(pointer), source: source)
    }

    init(value: JSONValue, trail: PointerTrail, source: String) {
        self.value = value
        self.trail = trail
        self.source = source
    }

    /// The JSON pointer of the value (`/interactions/3/response/status`).
    var pointer: String { trail.text }

    /// The reader of element `index` of this array.
    func element(_ element: JSONValue, at index: Int) -> FieldReader {
        FieldReader(value: element, trail: .index(trail, index), source: source)
    }

    /// The value of the last member named `key`, nil when there is none. Reading a leaf this
    /// way links no trail: the pointer is spelled out only for an error.
    private func member(_ key: String) throws(CassetteError) -> JSONValue? {
        guard case .object(let members) = value else { throw wrongType(at: pointer, expected: "an object", found: value) }
        return members.last(where: { $0.key == key })?.value
    }

    /// ``member(_:)``, or the error that names the missing field.
    private func required(_ key: String) throws(CassetteError) -> JSONValue {
        guard let child = try member(key) else {
            throw .invalidField(path: source, pointer: pointer + "/" + key, problem: "the required field '\(key)' is missing")
        }
        return child
    }

    func optionalField(_ key: String) throws(CassetteError) -> FieldReader? {
        guard let child = try member(key) else { return nil }
        return FieldReader(value: child, trail: .key(trail, key), source: source)
    }

    func field(_ key: String) throws(CassetteError) -> FieldReader {
        FieldReader(value: try required(key), trail: .key(trail, key), source: source)
    }

    func object(_ key: String) throws(CassetteError) -> FieldReader {
        let child = try field(key)
        guard case .object = child.value else { throw wrongType(at: child.pointer, expected: "an object", found: child.value) }
        return child
    }

    func optionalObject(_ key: String) throws(CassetteError) -> FieldReader? {
        guard let child = try optionalField(key) else { return nil }
        guard case .object = child.value else { throw wrongType(at: child.pointer, expected: "an object", found: child.value) }
        return child
    }

    func array(_ key: String) throws(CassetteError) -> [FieldReader] {
        let child = try field(key)
        guard case .array(let elements) = child.value else {
            throw wrongType(at: child.pointer, expected: "an array", found: child.value)
        }
        return elements.enumerated().map { child.element($1, at: $0) }
    }

    func string(_ key: String) throws(CassetteError) -> String {
        let child = try required(key)
        guard let string = child.stringValue else { throw wrongType(at: pointer(of: key), expected: "a string", found: child) }
        return string
    }

    func optionalString(_ key: String) throws(CassetteError) -> String? {
        guard let child = try member(key) else { return nil }
        guard let string = child.stringValue else { throw wrongType(at: pointer(of: key), expected: "a string", found: child) }
        return string
    }

    func int(_ key: String) throws(CassetteError) -> Int {
        let child = try required(key)
        guard case .number(let literal) = child, let int = Int(literal) else {
            throw wrongType(at: pointer(of: key), expected: "a whole number", found: child)
        }
        return int
    }

    func optionalDouble(_ key: String) throws(CassetteError) -> Double? {
        guard let child = try member(key) else { return nil }
        guard let double = child.doubleValue else { throw wrongType(at: pointer(of: key), expected: "a number", found: child) }
        return double
    }

    /// An absolute URL, kept as its text (``StoredURL``): a loaded interaction holds no parsed
    /// `URL`. Any scheme is read (a recorded redirect hop to `gopher:` must not make the
    /// cassette unreadable): such an interaction can never match a request, and
    /// `cassette lint` reports it as unreachable.
    func storedURL(_ key: String) throws(CassetteError) -> StoredURL {
        let text = try string(key)
        if let plain = StoredURL.plain(text) { return plain }
        guard let url = PercentEncoding.url(text), let scheme = url.scheme, !scheme.isEmpty else {
            throw .invalidField(path: source, pointer: pointer + "/" + key,
                                problem: "\(Redactor.quotedURL(text)) is not an absolute URL (scheme://host/path)")
        }
        return StoredURL(parsing: text, as: url)
    }

    /// `[["Name", "value"], …]`.
    func headers(_ key: String, sharing strings: StringTable? = nil) throws(CassetteError) -> HTTPHeaders {
        let list = try required(key)
        guard case .array(let pairs) = list else { throw wrongType(at: pointer(of: key), expected: "an array", found: list) }
        var fields: [HTTPHeader] = []
        fields.reserveCapacity(pairs.count)
        for (index, pair) in pairs.enumerated() {
            guard case .array(let parts) = pair, parts.count == 2,
                  case .string(let name) = parts[0], case .string(let value) = parts[1] else {
                throw .invalidField(path: source, pointer: pointer(of: key) + "/\(index)",
                                    problem: "expected a header pair [\"Name\", \"value\"], found \(CassetteBody.describe(pair))")
            }
            if let strings {
                fields.append(HTTPHeader(name: strings.shared(name), value: strings.shared(value)))
            } else {
                fields.append(HTTPHeader(name: name, value: value))
            }
        }
        return HTTPHeaders(fields)
    }

    /// The JSON pointer of member `key` of this value.
    private func pointer(of key: String) -> String {
        pointer + "/" + JSONValue.escapePointerToken(key)
    }

    private func wrongType(at pointer: String, expected: String, found: JSONValue) -> CassetteError {
        .invalidField(path: source, pointer: pointer, problem: "expected \(expected), found \(CassetteBody.describe(found))")
    }
}

/// The way from a document's root to a value, kept as links so that reading a field costs no
/// string work: the pointer text is spelled out only for an error.
indirect enum PointerTrail: Sendable {
    /// Where the walk starts (`""` for the document's root).
    case root(String)
    /// A member of an object.
    case key(PointerTrail, String)
    /// An element of an array.
    case index(PointerTrail, Int)

    /// The JSON pointer (RFC 6901): `~` and `/` in member names escaped.
    var text: String {
        switch self {
        case .root(let start): start
        case .key(let parent, let key): parent.text + "/" + JSONValue.escapePointerToken(key)
        case .index(let parent, let index): parent.text + "/\(index)"
        }
    }
}

/// Strings read more than once while decoding a batch of interactions, kept as one copy:
/// 100,000 responses saying `Content-Type: application/json` hold a hundred copies of it, not
/// 100,000 (18 MB less at the peak of `cassette show` of 100,000 interactions). Used by one thread.
final class StringTable {
    private var strings: [String: String] = [:]

    /// The copy already kept that equals `string`, or `string`, now kept. Strings of up to 15
    /// bytes are stored inline by Swift and gain nothing; long ones are rarely repeated.
    func shared(_ string: String) -> String {
        let count = string.utf8.count
        guard count > 15, count <= 256 else { return string }
        if let kept = strings[string] { return kept }
        strings[string] = string
        return string
    }
}
