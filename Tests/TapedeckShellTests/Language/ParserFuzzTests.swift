import TapedeckTestSupport
import Testing
@testable import TapedeckShell

@Suite("Parser fuzzing")
struct ParserFuzzTests {
    static let seeds = [
        "get /get q==1 X-A:b name=Ada n:=1", "expect json $.a[?(@.b == \"c\")].d count == 2",
        "post /p <<EOF", "header Authorization: Bearer {{token}}", "capture id = json $..id",
        "expect regex \"(\\d+)\" matches /x/", "set a = 'b c'", "put /x < file.json", "cd ../a",
        "record a.json --mode new", "print {{env.HOME}} and {{x}}", "expect header Content-Type not exists",
    ]
    static let alphabet = Array("abcdefgh $.[]()?@=:<>!{}'\"\\#/-*0123456789,é🎞\t")

    @Test("thousands of random and mutated lines yield a command or an error, never a crash")
    func randomLines() {
        var generator = SeededRandom(seed: 0x7A9E)
        var commands = 0, errors = 0
        for round in 0..<6000 {
            var line: String
            if round % 2 == 0 {
                var characters = Array(Self.seeds[Int.random(in: 0..<Self.seeds.count, using: &generator)])
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let position = Int.random(in: 0...characters.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: characters.insert(Self.alphabet.randomElement(using: &generator) ?? "x", at: position)
                    case 1: if position < characters.count { characters.remove(at: position) }
                    default: if position < characters.count { characters[position] = Self.alphabet.randomElement(using: &generator) ?? "y" }
                    }
                }
                line = String(characters)
            } else {
                let length = Int.random(in: 0..<40, using: &generator)
                let command = Parser.commandNames.randomElement(using: &generator) ?? "get"
                line = command + " " + String((0..<length).map { _ in Self.alphabet.randomElement(using: &generator) ?? "z" })
            }
            do {
                _ = try Parser.parseScript(line + "\n" + line, file: "fuzz")
                commands += 1
            } catch {
                errors += 1
                #expect(!(error.errorDescription ?? "").isEmpty)
                #expect(error.location.line >= 1 && error.location.column >= 1)
            }
        }
        #expect(commands + errors == 6000)
        #expect(commands > 100 && errors > 100)
    }

    @Test("random JSONPath text compiles or fails with a column inside the text")
    func randomPaths() {
        var generator = SeededRandom(seed: 42)
        for _ in 0..<3000 {
            let text = "$" + String((0..<Int.random(in: 0..<20, using: &generator)).map { _ in Self.alphabet.randomElement(using: &generator) ?? "a" })
            do {
                _ = try JSONPath(text)
            } catch {
                #expect(error.column >= 1 && error.column <= text.count + 1)
            }
        }
    }
}
