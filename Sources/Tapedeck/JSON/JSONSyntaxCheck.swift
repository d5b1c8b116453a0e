import Foundation

/// Whether bytes are a JSON document, found without building its tree: `cassette lint` checks
/// every body that says it is JSON, and a tree built only to be thrown away cost as much as
/// loading the cassette.
///
/// The check says yes only when ``JSONParser`` would parse the bytes. It leaves to the parser
/// what it does not read itself: bytes past ASCII, `\u` escapes, a byte order mark and nesting
/// more than 64 deep all make it say no, and a caller that needs to know why (or whether) then
/// parses. A no is therefore not a verdict; a yes is.
///
/// ```swift
/// if !JSONSyntaxCheck.isPlainJSON(body) {
///     do { _ = try JSONParser.parse(body) } catch { report(error) }
/// }
/// ```
package enum JSONSyntaxCheck {
    /// Containers deeper than this are left to the parser (whose limit is ``JSONParser/maximumDepth``).
    static let depthLimit = 64

    /// True when `data` is one JSON document of ASCII text without `\u` escapes, nested at most
    /// ``depthLimit`` deep; false when it is not JSON or the parser must read it to tell.
    package static func isPlainJSON(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var scanner = SyntaxScanner(bytes: raw.bindMemory(to: UInt8.self))
            return scanner.document()
        }
    }
}

/// The grammar of RFC 8259 over a byte buffer, as ``JSONParser`` reads it.
private struct SyntaxScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    mutating func document() -> Bool {
        skipWhitespace()
        guard value(depth: 0) else { return false }
        skipWhitespace()
        return index == bytes.count
    }

    private mutating func value(depth: Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return container(depth: depth)
        case UInt8(ascii: "\""):
            return string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number()
        case UInt8(ascii: "t"):
            return literal("true")
        case UInt8(ascii: "f"):
            return literal("false")
        case UInt8(ascii: "n"):
            return literal("null")
        default:
            return false
        }
    }

    /// Reads an object or an array from its opening bracket: members are a key, `:` and a
    /// value; elements are a value.
    private mutating func container(depth: Int) -> Bool {
        let isObject = bytes[index] == UInt8(ascii: "{")
        let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard depth < JSONSyntaxCheck.depthLimit else { return false }
        index += 1
        skipWhitespace()
        if next(close) { return true }
        repeat {
            skipWhitespace()
            if isObject {
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard next(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
            }
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
        } while next(UInt8(ascii: ","))
        return next(close)
    }

    /// Reads a string from its opening quote; `\u` escapes and bytes past ASCII are the parser's.
    private mutating func string() -> Bool {
        var i = index + 1
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\"") {
                index = i + 1
                return true
            }
            if byte < 0x20 || byte >= 0x80 { return false }
            if byte == UInt8(ascii: "\\") {
                guard i + 1 < bytes.count else { return false }
                switch bytes[i + 1] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    i += 2
                    continue
                default:
                    return false
                }
            }
            i += 1
        }
        return false
    }

    /// `-`, then `0` or digits not starting with `0`, then an optional fraction and exponent.
    private mutating func number() -> Bool {
        var i = index
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= UInt8(ascii: "0") && bytes[at] <= UInt8(ascii: "9") }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard isDigit(i) else { return false }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if isDigit(i) { return false }
        } else {
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard isDigit(i) else { return false }
            while isDigit(i) { i += 1 }
        }
        index = i
        return true
    }

    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func next(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
