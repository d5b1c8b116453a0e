import Foundation

/// JSON as Python's `json.dumps` writes it with its defaults (`", "` and `": "` separators,
/// `ensure_ascii`, floats as `repr`): the bytes cassetter's replay serves for a `type: json`
/// body. Tapedeck reads such bodies to the same bytes, and writes a body as `type: json` only
/// when these are its exact bytes, so nothing changes on the way through cassetter.
enum PythonJSON {
    static func dumps(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .number(let literal): out += number(literal)
        case .string(let text): string(text, into: &out)
        case .array(let elements):
            out += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                write(element, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                string(member.key, into: &out)
                out += ": "
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    /// Integers as written; anything with a fraction or exponent as Python's float `repr`.
    static func number(_ literal: String) -> String {
        let isInteger = !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
        if isInteger { return literal.hasPrefix("+") ? String(literal.dropFirst()) : literal }
        guard let double = Double(literal), double.isFinite else { return literal }
        return "\(double)"
    }

    private static func string(_ text: String, into out: inout String) {
        out += "\""
        for unit in text.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20...0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        out += "\""
    }
}
