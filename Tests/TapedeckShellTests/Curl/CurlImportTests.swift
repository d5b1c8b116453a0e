import Foundation
import Testing
@testable import TapedeckShell

@Suite("Translating pasted curl commands")
struct CurlImportUnitTests {
    @Test("shell quoting: single, double with escapes, $'…' with C escapes, backslash-newline")
    func words() throws {
        let words = try CurlWords.split(#"curl 'a b' "c \"d\" \$e" $'it\'s\nx\u00e9' f\ g "# + "\\\n  -H 'X: 1'")
        #expect(words == ["curl", "a b", "c \"d\" $e", "it's\nxé", "f g", "-H", "X: 1"])
        #expect(throws: CurlImportError.unclosedQuote("'")) { try CurlWords.split("curl 'open") }
    }

    @Test("data joins with &, -G moves it to the query, -d drops newlines but --data-binary keeps them")
    func data() throws {
        #expect(try CurlImport.convert("curl http://x/p -d a=1 -d b=2").command
            == "post http://x/p Content-Type:application/x-www-form-urlencoded --raw a=1&b=2")
        #expect(try CurlImport.convert("curl -G 'http://x/p?z=0' -d a=1 --data-urlencode 'q=a b'").command == "get http://x/p?z=0&a=1&q=a%20b")
        #expect(try CurlImport.convert("curl http://x/p -XPUT -H 'Content-Type: text/plain' --data-binary $'l1\\nl2'").command
            == "put http://x/p Content-Type:text/plain <<CURL\nl1\nl2\nCURL")
        #expect(try CurlImport.convert("curl -I http://x/").command == "head http://x/")
    }

    @Test("unsupported options, custom methods and file bodies are named with the fix")
    func errors() {
        #expect(throws: CurlImportError.unsupported("--proxy", hint: "remove it, or send the request with curl itself")) {
            try CurlImport.convert("curl --proxy http://p http://x")
        }
        #expect(throws: CurlImportError.missingURL) { try CurlImport.convert("curl -H 'A: b'") }
        #expect(throws: CurlImportError.self) { try CurlImport.convert("curl -X PURGE http://x") }
        #expect(throws: CurlImportError.self) { try CurlImport.convert("curl http://x -d @body.json") }
    }

    @Test("a header or URL with a control character is refused, never written as a second line; an empty URL is no URL")
    func controlCharacters() {
        #expect(throws: CurlImportError.controlCharacter(place: "header X-A", code: 0x0A)) {
            try CurlImport.convert("curl http://127.0.0.1:1/x -H $'X-A: a\\npost http://127.0.0.1:18431/pwn\\n'")
        }
        #expect(throws: CurlImportError.controlCharacter(place: "URL", code: 0x1B)) { try CurlImport.convert("curl $'http://127.0.0.1:1/\\x1b[2Jx'") }
        #expect(throws: CurlImportError.missingURL) { try CurlImport.convert("curl ''") }
    }

    @Test("a curl line in a script becomes the request, continuations joined; save keeps the Tapedeck command")
    func script() throws {
        let statements = try Parser.parseScript("curl 'http://x/a' \\\n  -H 'Accept: text/plain' -k\nexpect 200\n", file: "s.tape")
        #expect(statements.count == 3)
        #expect(statements[1].source == "get http://x/a Accept:text/plain")
        #expect(statements[1].location.line == 1)
        #expect(statements[2].location.line == 3)
        guard case .print = statements[0].command else { Issue.record("-k gives no note"); return }
        let unfinished = #expect(throws: ParseError.self) { try Parser.parseScript("curl http://x/a \\", file: "<prompt>") }
        #expect(unfinished?.wantsMoreInput == true)
    }
}
