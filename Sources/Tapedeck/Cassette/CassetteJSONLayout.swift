import Foundation

/// Lays out a cassette's JSON for people reading diffs: two-space indentation, one member
/// per line, and short arrays of scalars (header pairs such as `["Accept", "*/*"]`) on one line.
///
/// Members are written in the order given: the codec builds the envelope with sorted keys
/// and keeps recorded JSON bodies in their received order. `/` is never escaped; non-ASCII is
/// written as UTF-8. The output ends with a newline.
enum CassetteJSONLayout {
    /// Arrays of scalars at most this long (compact) stay on one line.
    static let inlineWidth = 80

    static func write(_ value: JSONValue) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(64 * 1024)
        write(value, indent: 0, into: &output)
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }

    private static func write(_ value: JSONValue, indent: Int, into output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let bool): output.append(contentsOf: (bool ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: literal.utf8)
        case .string(let string): writeString(string, into: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append(contentsOf: "[]".utf8)
            } else if let inline = inlineArray(elements) {
                output.append(contentsOf: inline)
            } else {
                output.append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { output.append(UInt8(ascii: ",")) }
                    newline(indent + 1, into: &output)
                    write(element, indent: indent + 1, into: &output)
                }
                newline(indent, into: &output)
                output.append(UInt8(ascii: "]"))
            }
        case .object(let members):
            if members.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1, into: &output)
                writeString(member.key, into: &output)
                output.append(contentsOf: ": ".utf8)
                write(member.value, indent: indent + 1, into: &output)
            }
            newline(indent, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `["a", "b"]` when every element is a scalar and the line stays short (pairs always).
    private static func inlineArray(_ elements: [JSONValue]) -> [UInt8]? {
        var line: [UInt8] = [UInt8(ascii: "[")]
        for (index, element) in elements.enumerated() {
            switch element {
            case .array, .object: return nil
            default: break
            }
            if index > 0 { line.append(contentsOf: ", ".utf8) }
            write(element, indent: 0, into: &line)
            if elements.count > 2, line.count > inlineWidth { return nil }
        }
        line.append(UInt8(ascii: "]"))
        return line
    }

    private static func newline(_ indent: Int, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, nothing else.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var copy = string
        copy.withUTF8 { bytes in
            var start = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                escape(byte, into: &output)
                start = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func escape(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
        case 0x0A: output.append(contentsOf: #"\n"#.utf8)
        case 0x0D: output.append(contentsOf: #"\r"#.utf8)
        case 0x09: output.append(contentsOf: #"\t"#.utf8)
        case 0x08: output.append(contentsOf: #"\b"#.utf8)
        case 0x0C: output.append(contentsOf: #"\f"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            output.append(contentsOf: #"\u00"#.utf8)
            output.append(hex[Int(byte >> 4)])
            output.append(hex[Int(byte & 0x0F)])
        }
    }
}
