import Foundation

/// Writes YAML scalars that PyYAML (vcrpy's loader) and Yams read back as exactly the same
/// string: plain where that is unambiguous, a literal block for readable multi-line text,
/// double-quoted with escapes otherwise.
package enum YAMLScalar {
    /// A scalar on the same line as its key: plain or double-quoted.
    static func inline(_ text: String) -> String {
        if isSafePlain(text) { return text }
        if canBeSingleQuoted(text) { return "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }
        return doubleQuoted(text)
    }

    /// A string that every YAML loader reads back as a string: plain when that is safe, else
    /// double-quoted (never single-quoted, which some loaders fold differently).
    static func doubleQuotedIfNeeded(_ text: String) -> String {
        isSafePlain(text) && !text.contains(where: { "&*!|>%@`#,[]{}".contains($0) }) ? text : doubleQuoted(text)
    }

    /// Single-quoted scalars hold printable text on one line; only `'` needs doubling.
    private static func canBeSingleQuoted(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x20...0x7E: true
            case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                scalar.value != 0x2028 && scalar.value != 0x2029 && scalar.value != 0xFEFF
            default: false
            }
        } && !text.hasPrefix(" ") && !text.hasSuffix(" ")
    }

    /// A body string after `key:` (the key indented by `parentIndent` spaces). Multi-line
    /// printable text becomes a `|` literal block indented two more; anything else is inline.
    static func block(_ text: String, parentIndent: Int) -> String {
        let indent = parentIndent + 2
        guard text.contains("\n"), canBeLiteral(text) else { return " " + inline(text) }
        var trailingNewlines = 0
        for character in text.utf8.reversed() {
            guard character == 0x0A else { break }
            trailingNewlines += 1
        }
        let chomp = trailingNewlines == 0 ? "-" : trailingNewlines == 1 ? "" : "+"
        let content = trailingNewlines == 0 ? Substring(text) : text.dropLast(trailingNewlines)
        let indicator = content.first == " " ? "2" : ""
        let pad = String(repeating: " ", count: indent)
        var out = " |\(indicator)\(chomp)\n"
        for line in content.split(separator: "\n", omittingEmptySubsequences: false) {
            out += line.isEmpty ? "\n" : pad + line + "\n"
        }
        if trailingNewlines > 1 { out += String(repeating: "\n", count: trailingNewlines - 1) }
        return String(out.dropLast())
    }

    /// `!!binary` base64 in a literal block, 76 characters a line as PyYAML writes it.
    static func binary(_ data: Data, indent: Int) -> String {
        let encoded = data.base64EncodedString()
        let pad = String(repeating: " ", count: indent)
        var out = " !!binary |"
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            out += "\n" + pad + encoded[index..<end]
            index = end
        }
        return encoded.isEmpty ? " !!binary ''" : out
    }

    private static let reserved: Set<String> = [
        "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "=", "<<",
    ]

    private static func isSafePlain(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              first.properties.isAlphabetic && first.isASCII || first == "/",
              last != " ", last != ":", !reserved.contains(text.lowercased()),
              !text.contains(": "), !text.contains(" #"), text.utf8.count < 400 else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || " _./:;=,()+-?&%@!*'~$".unicodeScalars.contains(scalar))
        } && !looksNumeric(text)
    }

    private static func looksNumeric(_ text: String) -> Bool {
        Double(text) != nil || text.lowercased().hasPrefix(".inf") || text.lowercased() == ".nan"
    }

    private static func canBeLiteral(_ text: String) -> Bool {
        guard !text.hasPrefix("\n") else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x0A, 0x09: true
            case 0x20...0x7E: true
            case 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                scalar.value != 0x2028 && scalar.value != 0x2029 && scalar.value != 0xFEFF
            default: false
            }
        } && !text.split(separator: "\n").contains { $0.hasPrefix("\t") || $0.hasSuffix(" ") || $0.hasSuffix("\t") }
    }

    /// A YAML double-quoted scalar with every non-printable character escaped.
    package static func doubleQuoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x09: out += "\\t"
            case 0x0D: out += "\\r"
            case 0x00: out += "\\0"
            case 0x20...0x7E, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF:
                if scalar.value == 0x2028 || scalar.value == 0x2029 || scalar.value == 0xFEFF {
                    out += "\\u" + hex(scalar.value, width: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            default:
                out += scalar.value <= 0xFF ? "\\x" + hex(scalar.value, width: 2) : "\\u" + hex(scalar.value, width: 4)
            }
        }
        return out + "\""
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
