import Foundation

/// Reads typed fields out of a parsed cassette, naming the file and JSON Pointer of
/// anything missing or mistyped.
struct FieldReader {
    let value: JSONValue
    let pointer: String
    let source: String

    func optionalField(_ key: String) throws(CassetteError) -> FieldReader? {
        guard case .object = value else { throw wrongType(at: pointer, expected: "an object", found: value) }
        guard let child = value[key] else { return nil }
        return FieldReader(value: child, pointer: pointer + "/" + JSONValue.escapePointerToken(key), source: source)
    }

    func field(_ key: String) throws(CassetteError) -> FieldReader {
        guard let child = try optionalField(key) else {
            throw .invalidField(path: source, pointer: pointer + "/" + key, problem: "the required field '\(key)' is missing")
        }
        return child
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
        return elements.enumerated().map { FieldReader(value: $1, pointer: child.pointer + "/\($0)", source: source) }
    }

    func string(_ key: String) throws(CassetteError) -> String {
        let child = try field(key)
        guard let string = child.value.stringValue else { throw wrongType(at: child.pointer, expected: "a string", found: child.value) }
        return string
    }

    func optionalString(_ key: String) throws(CassetteError) -> String? {
        guard let child = try optionalField(key) else { return nil }
        guard let string = child.value.stringValue else { throw wrongType(at: child.pointer, expected: "a string", found: child.value) }
        return string
    }

    func int(_ key: String) throws(CassetteError) -> Int {
        let child = try field(key)
        guard case .number(let literal) = child.value, let int = Int(literal) else {
            throw wrongType(at: child.pointer, expected: "a whole number", found: child.value)
        }
        return int
    }

    func optionalDouble(_ key: String) throws(CassetteError) -> Double? {
        guard let child = try optionalField(key) else { return nil }
        guard let double = child.value.doubleValue else { throw wrongType(at: child.pointer, expected: "a number", found: child.value) }
        return double
    }

    /// An absolute URL. Any scheme is read (a recorded redirect hop to `gopher:` must not make
    /// the cassette unreadable): such an interaction can never match a request, and
    /// `cassette lint` reports it as unreachable.
    func url(_ key: String) throws(CassetteError) -> URL {
        let text = try string(key)
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw .invalidField(path: source, pointer: pointer + "/" + key,
                                problem: "'\(text)' is not an absolute URL (scheme://host/path)")
        }
        return url
    }

    /// `[["Name", "value"], …]`.
    func headers(_ key: String) throws(CassetteError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for pair in try array(key) {
            guard case .array(let parts) = pair.value, parts.count == 2,
                  let name = parts[0].stringValue, let value = parts[1].stringValue else {
                throw .invalidField(path: source, pointer: pair.pointer,
                                    problem: "expected a header pair [\"Name\", \"value\"], found \(CassetteBody.describe(pair.value))")
            }
            headers.append(name: name, value: value)
        }
        return headers
    }

    private func wrongType(at pointer: String, expected: String, found: JSONValue) -> CassetteError {
        .invalidField(path: source, pointer: pointer, problem: "expected \(expected), found \(CassetteBody.describe(found))")
    }
}
