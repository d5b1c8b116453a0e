import Foundation
import Tapedeck
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The string formats of JSON Schema and OpenAPI that a value can break: `date-time`, `date`,
/// `time`, `email`, `uuid`, `uri`, `uri-reference`, `hostname`, `ipv4`, `ipv6` and `byte`
/// (base64). Other formats (`password`, `binary`, custom ones) are annotations and pass.
enum StringFormat {
    /// Why `value` is not a `format` string, or nil when it is (or the format is not checked).
    static func problem(_ value: String, format: String) -> String? {
        let valid: Bool
        switch format {
        case "date-time": valid = isDateTime(value)
        case "date": valid = isDate(value)
        case "time": valid = isDateTime("2000-01-01T" + value)
        case "email": valid = isEmail(value)
        case "uuid": valid = isUUID(value)
        case "uri": valid = isURI(value, absolute: true)
        case "uri-reference": valid = isURI(value, absolute: false)
        case "hostname": valid = isHostname(value)
        case "ipv4": valid = !value.contains("\0") && isAddress(value, family: AF_INET)
        case "ipv6": valid = !value.contains("\0") && isAddress(value, family: AF_INET6)
        case "byte": valid = value.count % 4 == 0 && Data(base64Encoded: value) != nil
        default: return nil
        }
        return valid ? nil : "\"\(value.count > 40 ? String(value.prefix(40)) + "…" : value)\" is not a valid \(format)"
    }

    /// RFC 3339's `date-time`, strictly: `T` between date and time, seconds, and an offset (`Z`
    /// or `±hh:mm`), a day and time that exist.
    private static func isDateTime(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        var rest = bytes[19...]
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            let digits = rest.prefix { (0x30...0x39).contains($0) }.count
            guard digits > 0 else { return false }
            rest = rest.dropFirst(digits)
        }
        let offset = String(decoding: rest, as: UTF8.self)
        let numeric = offset.utf8.count == 6 && ["+", "-"].contains(offset.first) && offset.dropFirst(3).first == ":"
            && offset.unicodeScalars.enumerated().allSatisfy { index, scalar in [0, 3].contains(index) || ("0"..."9").contains(scalar) }
        guard offset == "Z" || offset == "z" || numeric else { return false }
        return RFC3339Date.parse(value) != nil
    }

    /// `YYYY-MM-DD`, a day that exists.
    private static func isDate(_ value: String) -> Bool {
        value.utf8.count == 10 && RFC3339Date.parse(value + "T00:00:00Z") != nil
    }

    /// `local@domain` with no spaces or control characters and a host name as the domain (RFC
    /// 5321's mailbox, `a@localhost` included), not RFC 5322's comments and quoted forms.
    private static func isEmail(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return false }
        guard !value.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true }) else { return false }
        return isHostname(String(parts[1]))
    }

    /// 8-4-4-4-12 hexadecimal digits.
    private static func isUUID(_ value: String) -> Bool {
        let groups = value.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    /// RFC 3986: a scheme for `uri`, nothing a URI cannot hold (spaces, raw non-ASCII) for both.
    private static func isURI(_ value: String, absolute: Bool) -> Bool {
        guard !value.isEmpty || !absolute, value.allSatisfy({ $0.isASCII && !$0.isWhitespace }),
              let components = URLComponents(string: value) else { return false }
        guard absolute else { return true }
        guard let scheme = components.scheme, let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    /// Labels of 1–63 letters, digits and inner hyphens, 253 characters at most.
    private static func isHostname(_ value: String) -> Bool {
        let name = value.hasSuffix(".") ? String(value.dropLast()) : value
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// An address `inet_pton` reads in `family`.
    private static func isAddress(_ value: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return value.withCString { inet_pton(family, $0, &buffer) } == 1
    }
}
