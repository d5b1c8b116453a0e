import Foundation
import Testing
@testable import TapedeckShell

@Suite("Command redaction")
struct CommandRedactionTests {
    @Test("credentials in command lines are replaced, everything else is kept", arguments: [
        ("header Authorization: Bearer abc.def.ghi", "header Authorization: <REDACTED>", 1),
        ("header X-Team: ios", "header X-Team: ios", 0),
        ("set token = s3cr3t", "set token = <REDACTED>", 1),
        ("set user = ada", "set user = ada", 0),
        ("get /me Authorization:'Bearer abcdefgh1234' q==x", "get /me Authorization:'<REDACTED>' q==x", 1),
        ("get /me api_key==k1 page==2", "get /me api_key==<REDACTED> page==2", 1),
        ("post /login user=ada password=hunter2", "post /login user=ada password=<REDACTED>", 1),
        ("post /login password:='\"x y\"'", "post /login password:='<REDACTED>'", 1),
        ("get http://h/x?access_token=abc&lang=en", "get http://h/x?access_token=<REDACTED>&lang=en", 1),
        ("get /x X-Note:'Bearer abcdefghij'", "get /x X-Note:'Bearer <REDACTED>'", 1),
        ("print eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2ln", "print <REDACTED>", 1),
        ("get /me Authorization:{{auth}}", "get /me Authorization:{{auth}}", 0),
        ("expect json $.token exists", "expect json $.token exists", 0),
        // Every spelling of an item goes through the same rule.
        ("get /me 'Authorization:Bearer tok_live_abc123'", "get /me 'Authorization:<REDACTED>'", 1),
        ("get /me \"Authorization:Bearer tok_live_abc123\"", "get /me \"Authorization:<REDACTED>\"", 1),
        ("get /me Authorization:Bearer\\ tok_live_abc123", "get /me Authorization:<REDACTED>", 1),
        ("get /me 'X-Api-Key:sk_live_abc123' 'api_key==k 1'", "get /me 'X-Api-Key:<REDACTED>' 'api_key==<REDACTED>'", 2),
        ("get http://h/x?page=3&lang=en", "get http://h/x?page=3&lang=en", 0),
        // A pasted curl command: header, user, cookie and body options.
        ("curl https://h/me -H 'Authorization: Bearer tok_live_abc123'", "curl https://h/me -H 'Authorization: <REDACTED>'", 1),
        ("curl https://h/me -H 'X-Api-Key: sk_live_abc123' -H 'Accept: */*'",
         "curl https://h/me -H 'X-Api-Key: <REDACTED>' -H 'Accept: */*'", 1),
        ("curl https://h/me \\\n  --header \"Cookie: session=abc\" \\\n  -u ada:hunter2",
         "curl https://h/me \\\n  --header \"Cookie: <REDACTED>\" \\\n  -u ada:<REDACTED>", 2),
        ("curl https://h/login --data-raw 'user=ada&password=hunter2'", "curl https://h/login --data-raw 'user=ada&password=<REDACTED>'", 1),
        ("curl https://h/login -d '{\"password\":\"hunter2\"}'", "curl https://h/login -d '{\"password\":\"<REDACTED>\"}'", 1),
        ("curl https://h/x -H 'Accept: application/json'", "curl https://h/x -H 'Accept: application/json'", 0),
        // Attached short options, passwords for certificates and keys, and URL userinfo.
        ("curl https://h/x -H'X-Api-Key: sk_live_ATTACHED3' -uuser:ATTACHEDPW5", "curl https://h/x -H'X-Api-Key: <REDACTED>' -uuser:<REDACTED>", 2),
        ("curl https://h/x -E cert.pem:CERTPW22 --pass PASS23", "curl https://h/x -E cert.pem:<REDACTED> --pass <REDACTED>", 2),
        ("get http://bob:USERINFO7@h/x", "get http://bob:%3CREDACTED%3E@h/x", 1),
        // What cassettes redact, the history and saved scripts do too: key-like header names,
        // a JSON body typed whole, `set NAME VALUE` without `=`, vendor keys anywhere.
        ("get /x X-Refresh-Token:XRT_22222222", "get /x X-Refresh-Token:<REDACTED>", 1),
        ("post /x --raw '{\"password\":\"rawpw_12345678\"}'", "post /x --raw '{\"password\":\"<REDACTED>\"}'", 1),
        ("set password hunter2xyz", "set password <REDACTED>", 1),
        ("set stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc", "set stripe <REDACTED>", 1),
    ])
    func redacts(line: String, expected: String, count: Int) {
        let result = CommandRedaction.redact(line)
        #expect(result.text == expected)
        #expect(result.count == count)
    }

    @Test("a line the shell rules cannot read is still redacted item by item")
    func unclosedQuote() {
        let result = CommandRedaction.redact("get /me api_key==k1 'unclosed")
        #expect(result.text == "get /me api_key==<REDACTED> 'unclosed")
    }
}
