import Foundation

/// Serializes ``JSONValue``s deterministically: numbers as their literals, non-ASCII as
/// UTF-8, `/` never escaped.
///
/// ```swift
/// JSONWriter.write(["b": 1, "a": [true, nil]], options: [.pretty, .sortedKeys])
/// // {
/// //   "a": [
/// //     true,
/// //     null
/// //   ],
/// //   "b": 1
/// // }
/// ```
public struct JSONWriter: Sendable {
    /// How to lay out the output.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        public let rawValue: Int

        /// Creates options from raw bits.
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Two-space indentation, one member or element per line, `"key": value`; empty
        /// containers as `[]` and `{}`. Without it the output is compact (no whitespace).
        public static let pretty = Options(rawValue: 1 << 0)
        /// Object members sorted by key in UTF-8 byte order (duplicates keep their relative order).
        public static let sortedKeys = Options(rawValue: 1 << 1)
    }

    /// Serializes `value` as a string (no trailing newline).
    public static func write(_ value: JSONValue, options: Options = []) -> String {
        String(decoding: writeBytes(value, options: options), as: UTF8.self)
    }

    /// Serializes `value` as UTF-8 data (no trailing newline).
    public static func write(_ value: JSONValue, options: Options = []) -> Data {
        Data(writeBytes(value, options: options))
    }

    /// Serializes `value` into a byte array.
    static func writeBytes(_ value: JSONValue, options: Options) -> [UInt8] {
        var writer = Writer(pretty: options.contains(.pretty), sortedKeys: options.contains(.sortedKeys))
        writer.write(value, indent: 0)
        return writer.output
    }
}

private struct Writer {
    let pretty: Bool
    let sortedKeys: Bool
    var output: [UInt8] = []

    init(pretty: Bool, sortedKeys: Bool) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
        output.reserveCapacity(4096)
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let bool): append(bool ? "true" : "false")
        case .number(let literal): appendRaw(literal)
        case .string(let string): writeString(string)
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                write(element, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { return append("{}") }
            output.append(UInt8(ascii: "{"))
            let ordered = sortedKeys ? Self.sorted(members) : members
            for (position, member) in ordered.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                newline(indent + 1)
                writeString(member.key)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                write(member.value, indent: indent + 1)
            }
            newline(indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Members sorted by key bytes; ties keep document order so output is deterministic.
    static func sorted(_ members: [(key: String, value: JSONValue)]) -> [(key: String, value: JSONValue)] {
        members.enumerated()
            .sorted { a, b in
                if a.element.key == b.element.key { return a.offset < b.offset }
                return a.element.key.utf8.lexicographicallyPrecedes(b.element.key.utf8)
            }
            .map(\.element)
    }

    mutating func newline(_ indent: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    mutating func appendRaw(_ text: String) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    mutating func writeString(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            for i in 0..<bytes.count {
                let byte = bytes[i]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                default:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    output.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                               hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
            output.append(UInt8(ascii: "\""))
        }
    }
}
