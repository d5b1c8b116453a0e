import Foundation

// Why Tapedeck has its own JSON parser instead of JSONSerialization or JSONDecoder:
// cassettes, request bodies and `expect json` must see a document exactly as it was written.
// - Byte-exact round trip: a compact document parsed and written again is the same bytes, so
//   a replayed JSON body and a re-saved cassette do not drift (JSONParserTests: "compact
//   documents re-serialize byte for byte").
// - Key order and duplicate keys are kept (Foundation's dictionaries lose both), so saved
//   cassettes diff cleanly and bodies replay in the order the server sent them ("object
//   members keep document order and duplicates").
// - Number fidelity: literals stay text (`1.0`, `-0`, `1e400`, 25-digit integers); on Linux
//   JSONSerialization turns `1.0` into `1` and confuses `true` with `1` ("number literals are
//   kept exactly as written", "1000 random values survive write and parse in every layout").
// - Errors with line, column and JSON path, and a nesting limit without recursion.
// `make fuzz` runs a million mutated inputs through it (and its round trip) with no crash.

/// A strict RFC 8259 parser producing literal-preserving ``JSONValue``s.
///
/// No trailing commas, comments, `NaN` or unescaped control characters; `\uXXXX` escapes
/// including surrogate pairs (lone surrogates are rejected); a UTF-8 byte order mark is
/// allowed at the start; nesting is limited to ``maximumDepth`` levels. Works on UTF-8 bytes
/// without recursion.
///
/// ```swift
/// do {
///     let value = try JSONParser.parse(data)
/// } catch {
///     print("cassette.json:\(error.line):\(error.column) at \(error.path): \(error.reason)")
/// }
/// ```
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 512

    /// Parses a complete JSON document from UTF-8 bytes.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses a complete JSON document from a string.
    public static func parse(_ string: String) throws(JSONParseError) -> JSONValue {
        var string = string
        let result = string.withUTF8 { bytes in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = Parser(bytes: bytes)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }

    /// Parses a document whose top level is an object, handing each element of its member
    /// `key` (an array) to `element` as soon as the element is complete, with its index, and
    /// keeping none of them: that member reads `[]` in the value returned. A large cassette is
    /// decoded interaction by interaction this way, never holding the whole document's tree.
    ///
    /// With `unparsed`, each element is handed on as its bytes, found without parsing them
    /// (``extent(of:from:)``), for whoever reads it to parse; the rest of the document is
    /// parsed as ever.
    static func parse(_ data: Data, streamingElementsOf key: String, unparsed: Bool = false,
                      _ element: (Int, StreamedElement) -> Void) throws(JSONParseError) -> JSONValue {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
                parser.unparsedElements = unparsed
                return try parser.parseDocument(streaming: key, element)
            }
        }
        return try result.get()
    }

    /// ``parse(_:streamingElementsOf:unparsed:_:)`` of a document read through `window`, which
    /// moves on at each element of `key`, so the document's bytes are never held whole either.
    /// An element is handed on once the `,` or `]` after it has been read. When the document is
    /// malformed the error's line and column are 0: read the file whole and parse it again
    /// for them.
    static func parse(_ window: JSONFileWindow, streamingElementsOf key: String, unparsed: Bool = false,
                      _ element: (Int, StreamedElement) -> Void) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: window.bytes)
        parser.window = window
        parser.unparsedElements = unparsed
        return try parser.parseDocument(streaming: key, element)
    }

    /// Whether `byte` can start a JSON value (a byte order mark, say, cannot).
    static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): true
        default: false
        }
    }

    /// Where the value starting at `start` ends, found without parsing it: strings are skipped
    /// whole (eight bytes at a time), brackets counted, and a bare value ends at `,`, `]`, `}`
    /// or whitespace. Returns the index after its last byte and how deeply its arrays and
    /// objects nest, or nil when the bytes end first. Whether the bytes are JSON is left to
    /// whoever parses them.
    static func extent(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, depth: Int)? {
        var i = start
        var depth = 0
        var deepest = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                i += 1
                while true {
                    i += JSONStringBytes.plainRun(bytes, from: i).length
                    guard i < bytes.count else { return nil }
                    let byte = bytes[i]
                    i += byte == UInt8(ascii: "\\") ? 2 : 1
                    if byte == UInt8(ascii: "\"") { break }
                }
                if depth == 0 { return (i, 0) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return (i, deepest) }
                depth -= 1
                i += 1
                if depth == 0 { return (i, deepest) }
            case 0x0A:
                if depth == 0 { return (i, deepest) }
                i += 1 + JSONStringBytes.indentation(bytes, from: i + 1)
            case UInt8(ascii: ","), 0x20, 0x0D, 0x09:
                if depth == 0 { return (i, deepest) }
                i += 1
            default:
                i += 1
            }
        }
        return nil
    }

    /// Parses a complete JSON document from bytes.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = Parser(bytes: bytes)
        return try parser.parseDocument()
    }

    /// Parses a complete JSON document from a byte array.
    static func parse(bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in
                var parser = Parser(bytes: buffer)
                return try parser.parseDocument()
            }
        }
        return try result.get()
    }
}

/// Why and where a document failed to parse.
///
/// `errorDescription` reads "line 3, column 7: unterminated string".
public struct JSONParseError: Error, LocalizedError, Sendable, Equatable {
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column of the offending byte, counted in UTF-8 characters (not bytes) on its line.
    public var column: Int
    /// 0-based byte offset of the offending byte in the input (a byte order mark counts).
    public var offset: Int
    /// A short phrase saying what is wrong, e.g. "unterminated string".
    public var reason: String
    /// JSON Pointer of the value being parsed when the error happened, e.g. "/items/0/qty";
    /// "" for the top-level value.
    public var path: String

    /// Creates an error; the parser fills every field.
    public init(line: Int, column: Int, offset: Int, reason: String, path: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.reason = reason
        self.path = path
    }

    /// "line L, column C: reason".
    public var errorDescription: String? {
        "line \(line), column \(column): \(reason)"
    }
}

/// An element of the array a document is streamed by (``JSONParser/parse(_:streamingElementsOf:unparsed:_:)``).
enum StreamedElement {
    /// The element, parsed.
    case value(JSONValue)
    /// The element's bytes, from its first to its last, valid only during the call they are
    /// handed to.
    case bytes(UnsafeBufferPointer<UInt8>)
}

// MARK: - The parser

/// An array or object being filled while the parser reads its members.
private struct Frame {
    var isObject: Bool
    var elements: [JSONValue] = []
    var members: [(key: String, value: JSONValue)] = []

    /// A frame with room for four members or elements, which most of a cassette's containers
    /// fit: growing an empty array to four takes three allocations.
    init(isObject: Bool) {
        self.isObject = isObject
        if isObject { members.reserveCapacity(4) } else { elements.reserveCapacity(4) }
    }

    /// The key of the member whose value is being read.
    var key = ""
    /// How many elements were handed on rather than kept (the streamed array).
    var streamed = 0
}

private struct Parser {
    var bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var stack: [Frame] = []
    /// Scratch space for strings with escapes.
    var scratch: [UInt8] = []
    /// The file the bytes are a window of, when the document is read a window at a time.
    var window: JSONFileWindow?
    /// Whether reading a number or an escape ran into the end of the bytes (where a window
    /// may have cut it; the reasons ``endOfInput`` and ``unterminatedString`` always do).
    var reachedEnd = false
    static let endOfInput = "unexpected end of input"
    static let unterminatedString = "unterminated string"
    /// Where reading starts again when the window ended before a value did: the index of a
    /// value's first byte and how many containers were open there (the start of the document,
    /// then of each streamed element).
    var resume = (index: 0, depth: 0)
    /// Whether the streamed array's elements are handed on as bytes, unparsed.
    var unparsedElements = false
    /// Where the streamed element just read lies, when it is handed on as bytes.
    var unparsedElement = 0..<0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument(streaming key: String? = nil,
                                _ element: (Int, StreamedElement) -> Void = { _, _ in }) throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
        }
        resume = (index, 0)
        while true {
            reachedEnd = false
            do {
                return try readDocument(streaming: key, element)
            } catch {
                // A window that ended inside a value: keep the value's start, read on, and
                // read the value again. An error that did not come from reaching the window's
                // end, or came at the file's end, is the document's own (reading on would only
                // grow the window towards the rest of the file).
                let cut = reachedEnd || error.reason == Self.endOfInput || error.reason == Self.unterminatedString
                guard let window, !window.atEnd, cut else { throw error }
                window.keep(from: resume.index)
                bytes = window.bytes
                index = 0
                resume.index = 0
                if stack.count > resume.depth { stack.removeSubrange(resume.depth...) }
            }
        }
    }

    /// Whether the innermost container is the array whose elements are handed on.
    private func inStreamedArray(_ key: String?) -> Bool {
        stack.count == 2 && !stack[1].isObject && stack[0].isObject && key != nil && stack[0].key == key
    }

    /// Marks the start of a streamed element as where reading resumes, first moving the window
    /// on when more than half of it has been read.
    private mutating func markElementStart() {
        guard let window else { return }
        if index >= window.capacity / 2, !window.atEnd {
            window.keep(from: index)
            bytes = window.bytes
            index = 0
        }
        window.elementStart = window.dropped + index
        resume = (index, 2)
    }

    private mutating func readDocument(streaming key: String?, _ element: (Int, StreamedElement) -> Void) throws(JSONParseError) -> JSONValue {
        var value: JSONValue
        readValue: while true {
            if window != nil, inStreamedArray(key) { markElementStart() }
            skipWhitespace()
            guard index < bytes.count else { throw error(Self.endOfInput) }
            if unparsedElements, inStreamedArray(key), JSONParser.startsValue(bytes[index]) {
                guard let extent = JSONParser.extent(of: bytes, from: index) else {
                    reachedEnd = true
                    throw error(Self.endOfInput)
                }
                // As deep as the element may nest here, where two containers are open.
                guard extent.depth <= JSONParser.maximumDepth - stack.count else {
                    throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
                }
                unparsedElement = index..<extent.end
                index = extent.end
                value = .null
            } else {
                switch bytes[index] {
                case UInt8(ascii: "["):
                    try checkDepth()
                    index += 1
                    skipWhitespace()
                    // Whether the array is empty is read again with the window moved on (an element
                    // start must not be marked before a `]` that is still to come).
                    if window != nil, index == bytes.count { throw error(Self.endOfInput) }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                        index += 1
                        value = .array([])
                    } else {
                        stack.append(Frame(isObject: false))
                        continue readValue
                    }
                case UInt8(ascii: "{"):
                    try checkDepth()
                    index += 1
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                        index += 1
                        value = .object([])
                    } else {
                        stack.append(Frame(isObject: true))
                        try readKey()
                        continue readValue
                    }
                case UInt8(ascii: "\""):
                    value = .string(try readString())
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    value = .number(try readNumber())
                case UInt8(ascii: "t"):
                    try readLiteral("true")
                    value = .bool(true)
                case UInt8(ascii: "f"):
                    try readLiteral("false")
                    value = .bool(false)
                case UInt8(ascii: "n"):
                    try readLiteral("null")
                    value = .null
                case UInt8(ascii: "/"):
                    throw error("comments are not allowed in JSON")
                default:
                    throw error("expected a value but found \(describeByte(at: index))")
                }
            }

            // A value is complete: hand it to the enclosing containers, closing those that end.
            while true {
                guard !stack.isEmpty else {
                    if let window, !window.atEnd {
                        window.keepRest(from: index)
                        bytes = window.bytes
                        index = 0
                    }
                    skipWhitespace()
                    guard index == bytes.count else {
                        throw error("trailing characters after the JSON value", inValue: false)
                    }
                    return value
                }
                let top = stack.count - 1
                let isObject = stack[top].isObject
                // A streamed element is handed on once what follows it is read: a window that
                // ends before then reads the element again, and it must not be handed on twice.
                var streamed: JSONValue?
                if isObject {
                    stack[top].members.append((key: stack[top].key, value: value))
                } else if inStreamedArray(key) {
                    streamed = value
                } else {
                    stack[top].elements.append(value)
                }
                skipWhitespace()
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                guard index < bytes.count else { throw error(Self.endOfInput, inValue: false) }
                let byte = bytes[index]
                if byte == UInt8(ascii: ",") {
                    index += 1
                    if let streamed {
                        handOn(streamed, top: top, to: element)
                        resume = (index, 2)
                    }
                    skipWhitespace()
                    if index < bytes.count, bytes[index] == close {
                        throw error("trailing comma before '\(Character(Unicode.Scalar(close)))'", inValue: false)
                    }
                    if isObject { try readKey() }
                    continue readValue
                } else if byte == close {
                    index += 1
                    if let streamed {
                        handOn(streamed, top: top, to: element)
                        if let window {
                            // What follows the elements (metadata, version) is read whole.
                            window.keepRest(from: index)
                            bytes = window.bytes
                            index = 0
                        }
                    }
                    let frame = stack.removeLast()
                    value = isObject ? .object(frame.members) : .array(frame.elements)
                } else {
                    let what = isObject ? "expected ',' or '}' after object member" : "expected ',' or ']' after array element"
                    throw error(what, inValue: false)
                }
            }
        }
    }

    /// Hands on the streamed element just read: `value`, or its bytes when it was not parsed.
    private mutating func handOn(_ value: JSONValue, top: Int, to element: (Int, StreamedElement) -> Void) {
        element(stack[top].streamed, unparsedElements ? .bytes(UnsafeBufferPointer(rebasing: bytes[unparsedElement])) : .value(value))
        stack[top].streamed += 1
    }

    /// Refuses to open another array or object beyond the depth limit.
    private func checkDepth() throws(JSONParseError) {
        guard stack.count < JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    /// Reads `"key"` and `:` of an object member, leaving the index at its value.
    private mutating func readKey() throws(JSONParseError) {
        skipWhitespace()
        guard index < bytes.count else { throw error(Self.endOfInput, inValue: false) }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected '\"' to start an object key but found \(describeByte(at: index))", inValue: false)
        }
        let key = try readString(inValue: false)
        skipWhitespace()
        guard index < bytes.count else { throw error(Self.endOfInput, inValue: false) }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after object key", inValue: false)
        }
        index += 1
        stack[stack.count - 1].key = key
    }

    fileprivate mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A: index += 1 + JSONStringBytes.indentation(bytes, from: index + 1)
            case 0x20, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private mutating func readLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        let text = literal.utf8Start
        for offset in 0..<count {
            guard index + offset < bytes.count, bytes[index + offset] == text[offset] else {
                if index + offset >= bytes.count {
                    throw error(Self.endOfInput, at: bytes.count)
                }
                throw error("invalid literal, expected '\(literal)'")
            }
        }
        index += count
    }

    /// Reads a number and returns its literal, leaving the index after it.
    fileprivate mutating func readNumber() throws(JSONParseError) -> String {
        let start = index
        func isDigit(_ i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        var i = index
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { throw numberError("needs a digit after '-'", start: start, end: i) }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) {
                while isDigit(i) { i += 1 }
                throw numberError("has a leading zero", start: start, end: i)
            }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { throw numberError("needs a digit after '.'", start: start, end: i) }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { throw numberError("needs a digit in its exponent", start: start, end: i) }
            while isDigit(i) { i += 1 }
        }
        index = i
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
    }

    private mutating func numberError(_ problem: String, start: Int, end: Int) -> JSONParseError {
        if end >= bytes.count { reachedEnd = true }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return error("number '\(literal)' \(problem)", at: start)
    }

    /// Reads a string starting at its opening quote, leaving the index after the closing quote.
    fileprivate mutating func readString(inValue: Bool = true) throws(JSONParseError) -> String {
        let start = index
        var i = index + 1
        // Eight bytes at a time while none can end the string or start an escape (most of a
        // body's text), then byte by byte.
        let skipped = JSONStringBytes.plainRun(bytes, from: i)
        i += skipped.length
        var isASCII = !skipped.pastASCII
        // Fast path: no escapes.
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                let content = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<i])
                index = i + 1
                if isASCII { return String(decoding: content, as: UTF8.self) }
                guard let string = String(validating: content, as: UTF8.self) else {
                    throw error("invalid UTF-8 in string", at: start, inValue: inValue)
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw controlCharacterError(at: i, inValue: inValue) }
            if byte >= 0x80 { isASCII = false }
            i += 1
        }
        guard i < bytes.count else { throw error(Self.unterminatedString, at: start, inValue: inValue) }

        // Slow path: decode escapes into scratch, copying each run between them whole.
        scratch.removeAll(keepingCapacity: true)
        var run = start + 1
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 else {
                if byte >= 0x80 { isASCII = false }
                i += 1
                continue
            }
            if run < i { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            if byte == UInt8(ascii: "\"") {
                index = i + 1
                if isASCII { return String(decoding: scratch, as: UTF8.self) }
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw error("invalid UTF-8 in string", at: start, inValue: inValue)
                }
                return string
            }
            if byte < 0x20 { throw controlCharacterError(at: i, inValue: inValue) }
            guard i + 1 < bytes.count else { break }
            let escape = bytes[i + 1]
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(escape)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                let scalar = try readUnicodeEscape(at: i, inValue: inValue)
                appendUTF8(scalar.value)
                i += scalar.value > 0xFFFF ? 12 : 6
                run = i
                continue
            default:
                if escape < 0x20 { throw controlCharacterError(at: i + 1, inValue: inValue) }
                throw error("invalid escape '\\\(describeRaw(at: i + 1))'", at: i, inValue: inValue)
            }
            i += 2
            run = i
            // The run after an escape, eight bytes at a time.
            let skipped = JSONStringBytes.plainRun(bytes, from: i)
            i += skipped.length
            if skipped.pastASCII { isASCII = false }
        }
        throw error(Self.unterminatedString, at: start, inValue: inValue)
    }

    /// Decodes `\uXXXX` (and a following low surrogate) at `i`, which points at the backslash.
    private mutating func readUnicodeEscape(at i: Int, inValue: Bool) throws(JSONParseError) -> Unicode.Scalar {
        // `\uXXXX`, and a low surrogate's `\uXXXX` after a high one, may run past the bytes.
        if i + 12 > bytes.count { reachedEnd = true }
        guard let high = hex4(at: i + 2) else {
            var end = i + 2
            while end < min(i + 6, bytes.count), bytes[end] != UInt8(ascii: "\""), bytes[end] >= 0x20 { end += 1 }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
            throw error("invalid unicode escape '\(text)'", at: i, inValue: inValue)
        }
        switch high {
        case 0xD800...0xDBFF:
            if i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u"),
                let low = hex4(at: i + 8), (0xDC00...0xDFFF).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
                return scalar
            }
        case 0xDC00...0xDFFF:
            break
        default:
            if let scalar = Unicode.Scalar(high) { return scalar }
        }
        throw error("lone surrogate '\\u\(hexText(at: i + 2))'", at: i, inValue: inValue)
    }

    private func hex4(at i: Int) -> UInt32? {
        guard i + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for byte in bytes[i..<(i + 4)] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func hexText(at i: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<min(i + 4, bytes.count)]), as: UTF8.self)
    }

    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(value))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | value >> 6))
            scratch.append(UInt8(0x80 | value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | value >> 12))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | value >> 18))
            scratch.append(UInt8(0x80 | value >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | value >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | value & 0x3F))
        }
    }

    private func controlCharacterError(at i: Int, inValue: Bool) -> JSONParseError {
        let code = String(bytes[i], radix: 16, uppercase: true)
        return error("unescaped control character U+\(String(repeating: "0", count: 4 - code.count) + code) in string",
                     at: i, inValue: inValue)
    }

    // MARK: Error reporting

    /// Describes the byte at `i` for a message: `'x'`, `U+000A` or the non-ASCII character.
    private func describeByte(at i: Int) -> String {
        let raw = describeRaw(at: i)
        return raw.hasPrefix("U+") || raw.hasPrefix("byte") ? raw : "'\(raw)'"
    }

    private func describeRaw(at i: Int) -> String {
        let byte = bytes[i]
        if byte >= 0x20 && byte < 0x7F { return String(Character(Unicode.Scalar(byte))) }
        if byte < 0x80 {
            let code = String(byte, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: 4 - code.count) + code
        }
        for length in 2...4 where i + length <= bytes.count {
            if let text = String(validating: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]), as: UTF8.self) {
                return text
            }
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// An error at `offset` (default: the current index). `inValue` says whether the innermost
    /// container's current member or element is part of the path.
    fileprivate func error(_ reason: String, at offset: Int? = nil, inValue: Bool = true) -> JSONParseError {
        let offset = min(offset ?? index, bytes.count)
        // A window does not know its lines, and reading again through it throws many errors.
        guard window == nil else { return JSONParseError(line: 0, column: 0, offset: offset, reason: reason, path: "") }
        var line = 1
        var lineStart = 0
        for i in 0..<offset where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        if lineStart == 0, offset >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            lineStart = 3
        }
        var column = 1
        for i in lineStart..<offset where bytes[i] & 0xC0 != 0x80 {
            column += 1
        }
        var path = ""
        for (depth, frame) in stack.enumerated() where inValue || depth < stack.count - 1 {
            path += "/"
            path += frame.isObject ? JSONValue.escapePointerToken(frame.key) : String(frame.elements.count + frame.streamed)
        }
        return JSONParseError(line: line, column: column, offset: offset, reason: reason, path: path)
    }
}

// MARK: - Reading piece by piece

/// Reads a JSON value piece by piece, in the order the reader expects its parts, without
/// building a tree: the strict parser's own strings, numbers and errors, for a decoder that
/// knows the shape of what it reads (a cassette's interaction) and turns it straight into
/// its own types.
///
/// Each method skips whitespace first and throws ``JSONParseError`` when the bytes are not
/// what it reads. After ``beginObject()`` or ``more(closing:)`` returns true, read the key
/// (``key()``) or element next.
struct JSONPullReader {
    private var parser: Parser

    /// A reader of `bytes`, which must outlive it.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        parser = Parser(bytes: bytes)
    }

    /// The next byte that is not whitespace, not read; nil at the end.
    mutating func peek() -> UInt8? {
        parser.skipWhitespace()
        return parser.index < parser.bytes.count ? parser.bytes[parser.index] : nil
    }

    /// Reads `{`; false when `}` follows at once (and is read too).
    mutating func beginObject() throws(JSONParseError) -> Bool {
        try begin(UInt8(ascii: "{"), closing: UInt8(ascii: "}"))
    }

    /// Reads `[`; false when `]` follows at once (and is read too).
    mutating func beginArray() throws(JSONParseError) -> Bool {
        try begin(UInt8(ascii: "["), closing: UInt8(ascii: "]"))
    }

    private mutating func begin(_ opening: UInt8, closing: UInt8) throws(JSONParseError) -> Bool {
        guard peek() == opening else { throw parser.error("expected '\(Character(Unicode.Scalar(opening)))'") }
        parser.index += 1
        guard peek() == closing else { return true }
        parser.index += 1
        return false
    }

    /// Reads a member's key and the `:` after it.
    mutating func key() throws(JSONParseError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw parser.error("expected a key") }
        let key = try parser.readString(inValue: false)
        guard peek() == UInt8(ascii: ":") else { throw parser.error("expected ':' after object key") }
        parser.index += 1
        return key
    }

    /// After a member or element: true at `,` (read), false at `closing` (read).
    mutating func more(closing: UInt8) throws(JSONParseError) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            parser.index += 1
            return true
        case closing:
            parser.index += 1
            return false
        default:
            throw parser.error("expected ',' or '\(Character(Unicode.Scalar(closing)))'")
        }
    }

    /// Reads a string.
    mutating func string() throws(JSONParseError) -> String {
        guard peek() == UInt8(ascii: "\"") else { throw parser.error("expected a string") }
        return try parser.readString()
    }

    /// Reads a number, as its literal.
    mutating func number() throws(JSONParseError) -> String {
        guard let byte = peek(), byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else {
            throw parser.error("expected a number")
        }
        return try parser.readNumber()
    }

    /// Reads a whole value of any kind, parsed.
    mutating func value() throws(JSONParseError) -> JSONValue {
        guard let start = peek(), JSONParser.startsValue(start),
              let extent = JSONParser.extent(of: parser.bytes, from: parser.index) else {
            throw parser.error("expected a value")
        }
        var inner = Parser(bytes: UnsafeBufferPointer(rebasing: parser.bytes[parser.index..<extent.end]))
        let value = try inner.parseDocument()
        parser.index = extent.end
        return value
    }

    /// Reads the whitespace left; throws when anything else is left.
    mutating func end() throws(JSONParseError) {
        guard peek() == nil else { throw parser.error("trailing characters after the JSON value") }
    }
}
