import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

enum RandomJSON {
    static let alphabet: [Unicode.Scalar] = [
        "a", "Z", "0", " ", "\"", "\\", "/", "~", "\n", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "日", "\u{2028}",
        "\u{FFFD}", "🎉", "\u{10FFFF}",
    ]

    static func string(_ rng: inout SeededRandom) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            text.unicodeScalars.append(alphabet.randomElement(using: &rng) ?? "a")
        }
        return text
    }

    static func number(_ rng: inout SeededRandom) -> String {
        var literal = Bool.random(using: &rng) ? "-" : ""
        let integerDigits = Int.random(in: 1...25, using: &rng)
        literal += integerDigits == 1 ? String(Int.random(in: 0...9, using: &rng))
            : String(Int.random(in: 1...9, using: &rng)) + (1..<integerDigits).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
        if Bool.random(using: &rng) {
            literal += "." + (0..<Int.random(in: 1...6, using: &rng)).map { _ in String(Int.random(in: 0...9, using: &rng)) }.joined()
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            literal += ["e", "E"].randomElement(using: &rng) ?? "e"
            literal += ["", "+", "-"].randomElement(using: &rng) ?? ""
            literal += String(Int.random(in: 0...400, using: &rng))
        }
        return literal
    }

    static func value(_ rng: inout SeededRandom, depth: Int = 0) -> JSONValue {
        let choice = Int.random(in: 0..<(depth > 4 ? 4 : 6), using: &rng)
        switch choice {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2: return .number(number(&rng))
        case 3: return .string(string(&rng))
        case 4: return .array((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        default:
            let keys = (0..<Int.random(in: 0...3, using: &rng)).map { _ in string(&rng) }
            // Reuse keys now and then so duplicates appear.
            return .object((0..<Int.random(in: 0...5, using: &rng)).map { _ in
                (key: keys.randomElement(using: &rng) ?? string(&rng), value: value(&rng, depth: depth + 1))
            })
        }
    }
}

@Suite("JSON randomized")
struct JSONRandomizedTests {
    @Test("1000 random values survive write and parse in every layout")
    func writeParseRoundTrip() throws {
        var rng = SeededRandom(seed: 0x7A9E_DEC4)
        var sawDuplicateKeys = false
        for iteration in 0..<1000 {
            let value = RandomJSON.value(&rng)
            for options: JSONWriter.Options in [[], .pretty] {
                let data: Data = JSONWriter.write(value, options: options)
                let parsed = try JSONParser.parse(data)
                #expect(parsed == value, "case \(iteration), options \(options.rawValue)")
                if parsed != value { return }
            }
            let sorted: String = JSONWriter.write(value, options: [.sortedKeys, .pretty])
            let reparsed = try JSONParser.parse(sorted)
            #expect(reparsed.semanticallyEquals(value), "case \(iteration) sorted")
            #expect(JSONWriter.write(reparsed, options: [.sortedKeys, .pretty]) as String == sorted)
            if case .object(let members) = value, Set(members.map(\.key)).count < members.count { sawDuplicateKeys = true }
        }
        #expect(sawDuplicateKeys)
    }

    @Test("the syntax check says yes only to what the parser parses, and to every plain document it writes")
    func syntaxCheckAgreesWithParser() throws {
        var rng = SeededRandom(seed: 0x5CA7)
        var plain = 0, yes = 0, mutated = 0
        let interesting: [UInt8] = Array(#"{}[],:"\/-+.eE0189tfnu "#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xEF, 0xFF]
        for _ in 0..<3_000 {
            let original: [UInt8] = Array(JSONWriter.write(RandomJSON.value(&rng), options: Bool.random(using: &rng) ? .pretty : []) as Data)
            // Every document the writer makes of ASCII text without `\u` escapes is one the check reads itself.
            let isPlain = original.allSatisfy { $0 < 0x80 } && !Self.hasUnicodeEscape(original)
            if isPlain {
                plain += 1
                #expect(JSONSyntaxCheck.isPlainJSON(Data(original)), "\(String(decoding: original, as: UTF8.self))")
            }
            var bytes = original
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let position = Int.random(in: 0...bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: position)
                case 2 where position < bytes.count: bytes[position] = interesting.randomElement(using: &rng) ?? 0
                default: bytes = Array(bytes.prefix(position))
                }
            }
            mutated += 1
            for candidate in [original, bytes] where JSONSyntaxCheck.isPlainJSON(Data(candidate)) {
                yes += 1
                #expect(throws: Never.self, "\(String(decoding: candidate, as: UTF8.self))") { try JSONParser.parse(Data(candidate)) }
            }
        }
        #expect(plain > 500 && yes > plain && mutated == 3_000)
        // What the parser refuses at its edges, the check never accepts.
        for text in ["01", "-", "1.", ".5", "1e", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "[1 2]", "\"a\\u0041\"", "tru", "nul", "// x",
                     "\"\t\"", "[", "{", "\"\\x\"", " ", "", "1 1", String(repeating: "[", count: 65) + String(repeating: "]", count: 65)] {
            #expect(!JSONSyntaxCheck.isPlainJSON(Data(text.utf8)), "\(text)")
        }
    }

    private static func hasUnicodeEscape(_ bytes: [UInt8]) -> Bool {
        var escaped = false
        for byte in bytes {
            if escaped, byte == UInt8(ascii: "u") { return true }
            escaped = !escaped && byte == UInt8(ascii: "\\")
        }
        return false
    }

    @Test("random byte mutations of valid documents never crash")
    func mutations() throws {
        var rng = SeededRandom(seed: 42)
        var errors = 0
        var values = 0
        let interesting: [UInt8] = Array(#"{}[],:"\/-+.eE0189tfnu "#.utf8) + [0x00, 0x0A, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xED, 0xEF, 0xF0, 0xFF]
        for _ in 0..<1000 {
            var bytes: [UInt8] = Array(JSONWriter.write(RandomJSON.value(&rng), options: .pretty) as Data)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let position = Int.random(in: 0...bytes.count, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0 where position < bytes.count: bytes.remove(at: position)
                case 1: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: position)
                case 2 where position < bytes.count: bytes[position] = UInt8.random(in: 0...255, using: &rng)
                default: bytes = Array(bytes.prefix(position))
                }
            }
            do {
                let value = try JSONParser.parse(Data(bytes))
                values += 1
                // Whatever parsed must write and parse back to itself.
                #expect(try JSONParser.parse(JSONWriter.write(value, options: []) as Data) == value)
            } catch {
                errors += 1
                #expect(error.offset <= bytes.count)
                #expect(error.line >= 1 && error.column >= 1)
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(errors + values == 1000)
        #expect(errors > 500)
        #expect(values > 0)
    }
}
