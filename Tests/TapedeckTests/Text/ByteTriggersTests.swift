import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Skipping text no rule can act on")
struct ByteTriggersTests {
    @Test("words are found in either case, and escapes or bytes past ASCII always count")
    func words() {
        let triggers = ByteTriggers(["password", "_token"], escapes: "\\")
        #expect(triggers.mayMatch(#"{"PassWord": "x"}"#))
        #expect(triggers.mayMatch(#"{"refresh_TOKEN": "x"}"#))
        #expect(!triggers.mayMatch(#"{"id": 1, "name": "item 1", "token": "x"}"#), "`token` alone is not `_token`")
        #expect(triggers.mayMatch(#"{"pass\u0077ord": "x"}"#), "an escape may spell a word")
        #expect(triggers.mayMatch(#"{"naïve": "x"}"#), "bytes past ASCII lower-case in other ways")
        #expect(!triggers.mayMatch(""))
        #expect(!triggers.mayMatch("passwor"), "a word cut at the end is not there")
    }

    @Test("on random text the answer is a plain search's: a word in either case, an escape, or a byte past ASCII")
    func sameAsPlainSearch() {
        let words = ["password", "_token", "xoxb-", "eyj", "k", "ab"]
        let triggers = ByteTriggers(words, escapes: "%")
        let alphabet = Array("xXoObB-_pPaAsSwWdDtTkKeEyYjJn %".utf8) + [0xC3, 0xA9]
        var rng = SeededRandom(seed: 0x7A1E5)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...12, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let lowered = String(decoding: text.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            let expected = text.contains { $0 >= 0x80 || $0 == UInt8(ascii: "%") } || words.contains { lowered.contains($0) }
            #expect(text.withUnsafeBufferPointer { triggers.mayMatch($0) } == expected, "\(String(decoding: text, as: UTF8.self))")
        }
    }

    /// A JSON body from pieces chosen to come near the rules: credential names in any case,
    /// key-like names, escapes, tokens in values, and ordinary names and values.
    private static func body(_ rng: inout SeededRandom) -> String {
        let names = ["id", "name", "Password", "PASSWD", "x-Api-Key", "refresh_token", "token", "tokens", "key", "monkey",
                     "secretary", "client_secret", "Authorization", "private_key", "pass\\u0077ord", "api\u{212A}ey", "apikey2",
                     "user_password_hint", "keys", "session"]
        let values = ["\"plain\"", "\"Bearer abcdefgh12345678\"", "\"bearer short\"", "\"eyJhbGciOiJI.eyJzdWIiOiIx.sig\"",
                      "\"ghp_abcdefghijklmnopqrstuvwxyz\"", "\"AKIAABCDEFGHIJKLMNOP\"", "\"xoxb-1234567890\"", "12", "null",
                      "\"sk_live_abcdefghijk\"", "\"-----BEGIN RSA PRIVATE KEY-----\\nabc\"", "\"ordinary text\""]
        func value(_ depth: Int) -> String {
            switch Int.random(in: 0..<(depth > 2 ? 1 : 3), using: &rng) {
            case 0: return values.randomElement(using: &rng) ?? "null"
            case 1: return "[" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default:
                return "{" + (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    "\"\(names.randomElement(using: &rng) ?? "id")\": \(value(depth + 1))"
                }.joined(separator: ", ") + "}"
            }
        }
        return value(0)
    }

    @Test("a JSON body that the redactor or the lint would act on always holds a trigger")
    func soundForJSON() throws {
        var rng = SeededRandom(seed: 0x7A11)
        var acted = 0, skipped = 0
        for _ in 0..<3_000 {
            let text = Self.body(&rng)
            let data = Data(text.utf8)
            var secrets: [String] = []
            let value = try JSONParser.parse(data)
            var redactorActs = false, lintActs = false
            value.forEachLeaf { leaf, name, _ in
                guard case .string(let string) = leaf else { return }
                if let name, Redactor.standard.redactsJSONKey(name), !string.isEmpty { redactorActs = true }
                if let name, Redactor.defaultJSONKeys.contains(Redactor.lowercased(name)) || Redactor.isKeyLike(Redactor.lowercased(name)) {
                    lintActs = true
                }
                if SecretLint.bearerToken(in: string) != nil || SecretLint.firstJWT(in: string) != nil
                    || SecretLint.vendorSecret(in: string) != nil { lintActs = true }
            }
            if redactorActs {
                #expect(Redactor.standard.jsonTriggers.mayMatch(data), "\(text)")
                #expect(Redactor.standard.redactBody(data, contentType: "application/json", collecting: &secrets) != data, "\(text)")
            }
            if lintActs {
                #expect(!SecretLint.findings(in: Interaction.make(body: text), index: 0).isEmpty, "\(text)")
            }
            if redactorActs || lintActs { acted += 1 } else if !Redactor.standard.jsonTriggers.mayMatch(data) { skipped += 1 }
        }
        #expect(acted > 500 && skipped > 100, "the bodies cover both cases: \(acted) acted on, \(skipped) skipped")
    }

    @Test("a query with a redacted name always holds a trigger, however it is spelled")
    func soundForQueries() {
        var rng = SeededRandom(seed: 0x0E41)
        let names = ["page", "sort", "API_KEY", "apikey", "Token", "x-amz-signature", "sig", "my-secret", "access%5Ftoken",
                     "pass+word", "key", "monkey", "Password1", "session", "q"]
        for _ in 0..<3_000 {
            let query = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                "\(names.randomElement(using: &rng) ?? "q")=v\(Int.random(in: 0...9, using: &rng))"
            }.joined(separator: "&")
            let redacted = FormFields.pairs(query).contains { Redactor.standard.redactsQueryItem($0.name) }
            if redacted { #expect(Redactor.standard.queryTriggers.mayMatch(query), "\(query)") }
        }
    }
}
