import Foundation

/// Serializes ``JSONValue``s deterministically: numbers as their literals, non-ASCII as
/// UTF-8, `/` never escaped. The one JSON serializer: cassette files, HAR and usage records,
/// request bodies and the shell's coloured output all go through it (a ``Layout`` sets the
/// indentation, one-line scalar arrays and colours).
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
package struct JSONWriter: Sendable {
    /// How to lay out the output.
    package struct Options: OptionSet, Sendable, Hashable {
        /// The raw bits.
        package let rawValue: Int

        /// Creates options from raw bits.
        package init(rawValue: Int) { self.rawValue = rawValue }

        /// Two-space indentation, one member or element per line, `"key": value`; empty
        /// containers as `[]` and `{}`. Without it the output is compact (no whitespace).
        package static let pretty = Options(rawValue: 1 << 0)
        /// Object members sorted by key in UTF-8 byte order (duplicates keep their relative order).
        package static let sortedKeys = Options(rawValue: 1 << 1)
    }

    /// The kinds of token a ``Layout`` can decorate.
    package enum Token: Sendable, Hashable, CaseIterable {
        /// An object member's key.
        case key
        /// A string value.
        case string
        /// A number.
        case number
        /// `true`, `false` or `null`.
        case literal
    }

    /// How a pretty layout looks beyond ``Options``.
    package struct Layout: Sendable, Hashable {
        /// Spaces per level.
        package var indentWidth: Int
        /// Arrays of scalars stay on one line (`["Accept", "*/*"]`) when they have at most two
        /// elements or their line is at most this many bytes; nil puts every element on its own line.
        package var inlineScalarArrays: Int?
        /// Text written before and after each kind of token (ANSI colours), none when absent.
        package var decorations: [Token: Decoration]

        /// The text around a decorated token.
        package struct Decoration: Sendable, Hashable {
            /// Written before the token.
            package var prefix: String
            /// Written after the token.
            package var suffix: String

            /// Creates a decoration.
            package init(prefix: String, suffix: String) {
                self.prefix = prefix
                self.suffix = suffix
            }
        }

        /// Creates a layout; the defaults are ``Options/pretty``'s: two spaces, one element per line, no decoration.
        package init(indentWidth: Int = 2, inlineScalarArrays: Int? = nil, decorations: [Token: Decoration] = [:]) {
            self.indentWidth = indentWidth
            self.inlineScalarArrays = inlineScalarArrays
            self.decorations = decorations
        }
    }

    /// Serializes `value` as a string (no trailing newline).
    package static func write(_ value: JSONValue, options: Options = []) -> String {
        written(value, options: options).withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Serializes `value` as UTF-8 data (no trailing newline).
    package static func write(_ value: JSONValue, options: Options = []) -> Data {
        written(value, options: options).withBytes { Data(buffer: $0) }
    }

    /// Serializes `value` pretty-printed in `layout` (no trailing newline); `options` may add ``Options/sortedKeys``.
    package static func write(_ value: JSONValue, layout: Layout, options: Options = []) -> String {
        written(value, options: options.union(.pretty), layout: layout).withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Serializes `value` into a byte array.
    static func writeBytes(_ value: JSONValue, options: Options, layout: Layout = Layout()) -> [UInt8] {
        written(value, options: options, layout: layout).array
    }

    /// Serializes `value` into bytes of the writer's own.
    private static func written(_ value: JSONValue, options: Options, layout: Layout = Layout()) -> ByteOutput {
        var writer = Writer(pretty: options.contains(.pretty), sortedKeys: options.contains(.sortedKeys), layout: layout)
        writer.write(value, indent: 0)
        return writer.output
    }
}

extension JSONWriter {
    /// Writes a pretty document piece by piece, in the bytes ``JSONWriter/writeBytes(_:options:layout:)``
    /// gives the same tree, without making the tree: the cassette codec writes each interaction
    /// through it (and a recording proxy a journal record for every request it passes on).
    ///
    /// ```swift
    /// var stream = JSONWriter.Stream(layout: JSONWriter.Layout(inlineScalarArrays: 80))
    /// stream.beginObject()
    /// stream.key("headers")
    /// stream.beginArray()
    /// stream.pair("Accept", "*/*")
    /// stream.end()
    /// stream.end()
    /// // {
    /// //   "headers": [
    /// //     ["Accept", "*/*"]
    /// //   ]
    /// // }
    /// ```
    package struct Stream {
        private var writer: Writer
        /// Each open container, outermost first: whether it is an object, and how many members
        /// or elements it has so far (its opening is written with the first).
        private var open: [(isObject: Bool, count: Int)] = []
        /// Whether a member's key was written and its value is due.
        private var keyed = false

        /// Creates a stream laid out as `layout`, with room for `capacity` bytes.
        package init(layout: Layout, capacity: Int = 4096) {
            writer = Writer(pretty: true, sortedKeys: false, layout: layout, capacity: capacity)
        }

        /// What has been written.
        package var bytes: [UInt8] { writer.output.array }

        /// Calls `body` with what has been written (valid only inside it).
        package func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
            try writer.output.withBytes(body)
        }

        /// Opens an object as the next value.
        package mutating func beginObject() {
            beforeValue()
            open.append((true, 0))
        }

        /// Opens an array as the next value. Its elements go one per line: an array of scalars
        /// that the layout may keep on one line is written whole, with ``value(_:)`` or ``pair(_:_:)``.
        package mutating func beginArray() {
            beforeValue()
            open.append((false, 0))
        }

        /// Closes the innermost object or array (`{}` or `[]` when nothing was put in it).
        package mutating func end() {
            let (isObject, count) = open.removeLast()
            guard count > 0 else { return writer.append(isObject ? "{}" : "[]") }
            writer.newline(open.count)
            writer.output.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }

        /// Starts the next member of the innermost object; its value comes next.
        package mutating func key(_ key: String) {
            nextLine()
            writer.decorated(.key) { $0.writeString(key) }
            writer.append(": ")
            keyed = true
        }

        /// Writes `value` as the next value, laid out as the tree writer lays it out there.
        package mutating func value(_ value: JSONValue) {
            beforeValue()
            writer.write(value, indent: open.count)
        }

        /// Writes a string as the next value.
        package mutating func string(_ string: String) {
            beforeValue()
            writer.decorated(.string) { $0.writeString(string) }
        }

        /// Writes a number's literal as the next value.
        package mutating func number(_ literal: String) {
            beforeValue()
            writer.decorated(.number) { $0.appendRaw(literal) }
        }

        /// Writes `[first, second]` as the next value: two strings, on one line when the layout
        /// keeps short arrays of scalars on one line (a header's name and value).
        package mutating func pair(_ first: String, _ second: String) {
            guard writer.layout.inlineScalarArrays != nil else { return value(.array([.string(first), .string(second)])) }
            beforeValue()
            writer.output.append(UInt8(ascii: "["))
            writer.decorated(.string) { $0.writeString(first) }
            writer.append(", ")
            writer.decorated(.string) { $0.writeString(second) }
            writer.output.append(UInt8(ascii: "]"))
        }

        /// Before a value: nothing after a key; an element's comma and line in an array.
        private mutating func beforeValue() {
            if keyed {
                keyed = false
            } else if !open.isEmpty {
                nextLine()
            }
        }

        /// The innermost container's opening or a comma, then a line at its members' depth.
        private mutating func nextLine() {
            let last = open.count - 1
            if open[last].count == 0 {
                writer.output.append(open[last].isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
            } else {
                writer.output.append(UInt8(ascii: ","))
            }
            open[last].count += 1
            writer.newline(open.count)
        }
    }
}

private struct Writer {
    let pretty: Bool
    let sortedKeys: Bool
    let layout: JSONWriter.Layout
    /// Whether any token is decorated: most writes (cassettes, bodies) skip the lookup per token.
    let decorating: Bool
    var output: ByteOutput

    init(pretty: Bool, sortedKeys: Bool, layout: JSONWriter.Layout, capacity: Int = 4096) {
        self.pretty = pretty
        self.sortedKeys = sortedKeys
        self.layout = layout
        decorating = !layout.decorations.isEmpty
        output = ByteOutput(capacity: capacity)
    }

    mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: decorated(.literal) { $0.append("null") }
        case .bool(let bool): decorated(.literal) { $0.append(bool ? "true" : "false") }
        case .number(let literal): decorated(.number) { $0.appendRaw(literal) }
        case .string(let string): decorated(.string) { $0.writeString(string) }
        case .array(let elements):
            guard !elements.isEmpty else { return append("[]") }
            if pretty, let width = layout.inlineScalarArrays, writeInline(elements, width: width) { return }
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
                decorated(.key) { $0.writeString(member.key) }
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
        output.appendLineBreak(indentedBy: indent * layout.indentWidth)
    }

    /// Writes a token with its layout decoration around it.
    mutating func decorated(_ token: JSONWriter.Token, _ body: (inout Writer) -> Void) {
        guard decorating, let decoration = layout.decorations[token] else { return body(&self) }
        appendRaw(decoration.prefix)
        body(&self)
        appendRaw(decoration.suffix)
    }

    /// Writes `["a", "b"]` and says true when every element is a scalar and the array has at
    /// most two elements or fits in `width` bytes; otherwise writes nothing and says false.
    ///
    /// The line is written in place and taken back when it grows too long: a line of its own
    /// (an array made for each) cost more than the writing, once for every header of a cassette.
    mutating func writeInline(_ elements: [JSONValue], width: Int) -> Bool {
        // An array that holds an array or object is never one line: known before a line is made.
        for element in elements {
            switch element {
            case .array, .object: return false
            default: continue
            }
        }
        let start = output.count
        output.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { append(", ") }
            // Elements are scalars: written as a line, with no line breaks or spaces of their own.
            write(element, indent: 0)
            if elements.count > 2, output.count - start > width {
                output.removeAll(from: start)
                return false
            }
        }
        output.append(UInt8(ascii: "]"))
        return true
    }

    mutating func append(_ text: StaticString) {
        output.append(text)
    }

    mutating func appendRaw(_ text: String) {
        output.append(text)
    }

    /// Whether `byte` is written escaped inside a string: a control character, `"` or `\`.
    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    mutating func writeString(_ string: String) {
        ByteSearch.withBytes(of: string) { writeString(bytes: $0) }
    }

    /// Writes the string whose UTF-8 is `bytes`, quoted and escaped.
    private mutating func writeString(bytes: UnsafeBufferPointer<UInt8>) {
        // Eight bytes at a time while none of them needs an escape (most text, every header),
        // then the rest one by one; a string with nothing to escape is copied whole, quoted.
        let plain = JSONStringBytes.plainRun(bytes, from: 0).length
        var first = plain
        while first < bytes.count, !Self.needsEscape(bytes[first]) { first += 1 }
        guard first < bytes.count else { return output.append(quoted: bytes) }
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for i in first..<bytes.count {
            let byte = bytes[i]
            guard Self.needsEscape(byte) else { continue }
            output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
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
                let hex: StaticString = "0123456789abcdef"
                output.append("u00")
                output.append(hex.utf8Start[Int(byte >> 4)])
                output.append(hex.utf8Start[Int(byte & 0xF)])
            }
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        output.append(UInt8(ascii: "\""))
    }
}

/// Tests on eight bytes of a JSON document at once, for the writer and the parser: most of a
/// string's bytes need no escape, and most of a pretty-printed line's start is spaces.
enum JSONStringBytes {
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any of the eight bytes in `word` may be a control character, `"` or `\`; never
    /// false when one is (a byte past ASCII may make it say true for nothing).
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highBits != 0 }
        let control = (word &- ones &* 0x20) & ~word & highBits != 0
        return control || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\""))))
            || hasZeroByte(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    }

    /// How many bytes from `start` in `bytes` are spaces, eight at a time (a multiple of
    /// eight): the indentation after a line break in a pretty-printed document, such as a
    /// cassette, skipped a word at a time.
    static func indentation(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        var end = start
        while end + 8 <= bytes.count, raw.loadUnaligned(fromByteOffset: end, as: UInt64.self) == 0x2020_2020_2020_2020 {
            end += 8
        }
        return end - start
    }

    /// How many bytes from `start` in `bytes`, eight at a time, certainly hold no control
    /// character, `"` or `\` (a multiple of eight; the bytes after it are read one by one), and
    /// whether any of them is past ASCII.
    static func plainRun(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (length: Int, pastASCII: Bool) {
        let raw = UnsafeRawBufferPointer(bytes)
        var end = start
        var high: UInt64 = 0
        while end + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
            if mayNeedEscape(word) { break }
            high |= word & highBits
            end += 8
        }
        return (end - start, high != 0)
    }
}
