import Foundation

/// A JSON document that keeps everything it was written with: key order, duplicate keys
/// and number literals ("1.0", "-0", "1e5").
///
/// `==` is structural (same order, same literals); use ``semanticallyEquals(_:)`` to
/// compare the way a JSON consumer would.
///
/// Duplicate keys are kept as written, and every lookup reads the **last** one: the
/// subscript, ``value(at:)``, semantic equality, `Decodable`, the interop readers and the
/// shell's JSONPath (RFC 8259 leaves it open; JavaScript's `JSON.parse` and Python's `json` do the same).
///
/// ```swift
/// let body = try JSONParser.parse(#"{"id": 7, "tags": ["a", "b"]}"#)
/// body["tags"]?[1]?.stringValue            // "b"
/// body.value(at: "/id")                    // .number("7")
/// JSONWriter.write(body, options: .pretty)  // two-space indented text
/// ```
public enum JSONValue: Sendable {
    /// The literal `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, stored as the literal exactly as written (e.g. `"1.0"`, `"-0"`, `"1e5"`).
    ///
    /// The literal must be a valid JSON number; ``JSONWriter`` writes it unchanged.
    case number(String)
    /// A string, with escapes already decoded.
    case string(String)
    /// An array of values.
    case array([JSONValue])
    /// An object's members in document order; duplicate keys are kept.
    case object([(key: String, value: JSONValue)])
}

// MARK: - Convenience initialisers

extension JSONValue {
    /// A number holding `double`'s shortest round-tripping literal; NaN and infinities become `.null`.
    public init(_ double: Double) {
        self = double.isFinite ? .number("\(double)") : .null
    }

    /// A number holding `int`'s decimal literal.
    public init(_ int: Int) {
        self = .number(String(int))
    }
}

// MARK: - Accessors

extension JSONValue {
    /// The name of this value's JSON type: "null", "bool", "number", "string", "array" or "object".
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "bool"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The string, if this is a `.string`.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean, if this is a `.bool` (numbers are not booleans).
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The number as a `Double` (nearest representable), if this is a `.number`.
    public var doubleValue: Double? {
        if case .number(let literal) = self { return Self.plainDecimal(literal) ?? Double(literal) }
        return nil
    }

    /// `Double(literal)` for a plain decimal of at most 15 digits, such as a recorded
    /// duration's `0.0042`; nil for any other literal. It is the digits as a whole number over
    /// a power of ten: both are exact doubles, so the one division rounds as parsing would
    /// (Clinger's fast path), at a tenth of the cost.
    static func plainDecimal(_ literal: String) -> Double? {
        var literal = literal
        return literal.withUTF8 { bytes -> Double? in
            var index = 0
            let negative = bytes.first == UInt8(ascii: "-")
            if negative { index = 1 }
            var mantissa: Int64 = 0
            var digits = 0
            var fractionDigits = 0
            var seenPoint = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") {
                    guard !seenPoint else { return nil }
                    seenPoint = true
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    digits += 1
                    guard digits <= 15 else { return nil }
                    mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                    if seenPoint { fractionDigits += 1 }
                } else {
                    return nil
                }
                index += 1
            }
            guard digits > 0 else { return nil }
            let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
    }

    /// 10⁰ through 10¹⁵, each an exact double.
    private static let powersOfTen: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]

    /// The elements, if this is an `.array`.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members in document order, if this is an `.object`.
    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The value of the last member named `key`, if this is an object that has one.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// The element at `index`, if this is an array and `index` is in bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }
}

// MARK: - Structural equality

extension JSONValue: Equatable {
    /// Structural equality: same types, same member order, same keys, same number literals.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            for (x, y) in zip(a, b) where x.key != y.key || x.value != y.value {
                return false
            }
            return true
        default: return false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes the structure, consistent with structural `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0)
        case .bool(let bool):
            hasher.combine(1)
            hasher.combine(bool)
        case .number(let literal):
            hasher.combine(2)
            hasher.combine(literal)
        case .string(let string):
            hasher.combine(3)
            hasher.combine(string)
        case .array(let elements):
            hasher.combine(4)
            hasher.combine(elements)
        case .object(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }
}

// MARK: - Semantic equality

extension JSONValue {
    /// Compares the way a JSON consumer would: objects as unordered key sets (the last
    /// duplicate wins), numbers by value (`1.0`, `1` and `1e0` are equal, big integers exactly),
    /// strings, booleans and null exactly; `true` is not `1`.
    public func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.number(a), .number(b)):
            return a == b || CanonicalNumber(a) == CanonicalNumber(b)
        case let (.array(a), .array(b)):
            guard a.count == b.count else { return false }
            return zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case let (.object(a), .object(b)):
            let left = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let right = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            guard left.count == right.count else { return false }
            for (key, value) in left {
                guard let counterpart = right[key], value.semanticallyEquals(counterpart) else { return false }
            }
            return true
        default: return false
        }
    }
}

extension JSONValue {
    /// Orders two JSON number literals by value, exactly, with no floating-point rounding
    /// (`9007199254740993` is greater than `9007199254740992`; `1.0`, `1` and `1e0` are equal):
    /// negative, zero or positive as `a` is less than, equal to or greater than `b`. Both must be
    /// JSON number literals (what ``JSONParser`` produces).
    package static func compareNumbers(_ a: String, _ b: String) -> Int {
        if a == b { return 0 }
        return CanonicalNumber(a).compare(CanonicalNumber(b))
    }
}

/// A number literal reduced to sign, significant digits and a power of ten, so that
/// numerically equal literals compare equal without floating-point rounding.
struct CanonicalNumber: Equatable {
    /// Negative, zero or positive as `self` is less than, equal to or greater than `other`.
    func compare(_ other: CanonicalNumber) -> Int {
        let sign = digits.isEmpty ? 0 : (isNegative ? -1 : 1)
        let otherSign = other.digits.isEmpty ? 0 : (other.isNegative ? -1 : 1)
        guard sign == otherSign, sign != 0 else { return sign - otherSign }
        // Same sign: compare magnitudes by the place of the leading digit, then digit by digit.
        let magnitude: Int
        let (place, otherPlace) = (digits.count + exponent, other.digits.count + other.exponent)
        if place != otherPlace {
            magnitude = place < otherPlace ? -1 : 1
        } else if digits == other.digits {
            magnitude = 0
        } else {
            magnitude = digits.lexicographicallyPrecedes(other.digits) ? -1 : 1
        }
        return sign * magnitude
    }

    var isNegative = false
    /// Significant digits without leading or trailing zeros; empty for zero.
    var digits: [UInt8] = []
    /// The value is `digits × 10^exponent`.
    var exponent = 0

    /// Reduces `literal`; anything that is not a JSON number yields a value that only equals
    /// itself by its raw bytes (callers compare the literals first).
    init(_ literal: String) {
        var bytes = Array(literal.utf8)[...]
        if bytes.first == UInt8(ascii: "-") {
            isNegative = true
            bytes = bytes.dropFirst()
        }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                seenPoint = true
            } else {
                mantissa.append(byte)
                if seenPoint { fractionDigits += 1 }
            }
        }
        var written = 0
        if !bytes.isEmpty {
            bytes = bytes.dropFirst()
            var negativeExponent = false
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") {
                negativeExponent = bytes.first == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            for byte in bytes {
                // Saturate: exponents this large are out of any real range anyway.
                written = min(written &* 10 &+ Int(byte &- UInt8(ascii: "0")), 1 << 40)
            }
            if negativeExponent { written = -written }
        }
        let firstSignificant = mantissa.firstIndex(where: { $0 != UInt8(ascii: "0") })
        guard let first = firstSignificant else {
            isNegative = false  // -0 == 0
            return
        }
        var last = mantissa.count - 1
        var trailingZeros = 0
        while mantissa[last] == UInt8(ascii: "0") {
            last -= 1
            trailingZeros += 1
        }
        digits = Array(mantissa[first...last])
        exponent = written - fractionDigits + trailingZeros
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is JSON `null`.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` / `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal becomes a number with that decimal literal.
    public init(integerLiteral value: Int) { self.init(value) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A float literal becomes a number with Swift's shortest literal for it (`1.5`, `1e-05`).
    public init(floatLiteral value: Double) { self.init(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal becomes a JSON string.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal becomes a JSON array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal becomes an object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { (key: $0.0, value: $0.1) })
    }
}

// MARK: - Codable

extension JSONValue: Codable {
    /// Decodes any JSON-shaped value: null, Bool, Int64, Double, String, array or dictionary.
    ///
    /// Foundation's `JSONDecoder` hands dictionaries over unordered and numbers as binary
    /// values, so this path loses key order, duplicates and literals (`1.0` becomes `1`, big
    /// integers are rounded); object keys are sorted for determinism. ``JSONParser`` is the
    /// faithful path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int64.self) {
            self = .number(String(int))
        } else if let double = try? container.decode(Double.self) {
            self = JSONValue(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let dictionary = try? container.decode([String: JSONValue].self) {
            let keys = dictionary.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            self = .object(keys.map { (key: $0, value: dictionary[$0] ?? .null) })
        } else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a JSON value (null, bool, number, string, array or object)")
        }
    }

    /// Encodes as the matching primitive; numbers go out as Int64, UInt64 or Double (the
    /// nearest one), objects as keyed containers in member order with the last duplicate kept.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .number(let literal):
            var container = encoder.singleValueContainer()
            if let int = Int64(literal) {
                try container.encode(int)
            } else if let unsigned = UInt64(literal) {
                try container.encode(unsigned)
            } else if let double = Double(literal) {
                try container.encode(double)
            } else {
                throw EncodingError.invalidValue(
                    literal, .init(codingPath: encoder.codingPath, debugDescription: "'\(literal)' is not a JSON number"))
            }
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberKey.self)
            var lastIndex: [String: Int] = [:]
            for (index, member) in members.enumerated() { lastIndex[member.key] = index }
            for (index, member) in members.enumerated() where lastIndex[member.key] == index {
                try container.encode(member.value, forKey: MemberKey(member.key))
            }
        }
    }

    /// A coding key for arbitrary object member names.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}
