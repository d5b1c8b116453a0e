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
    ])
    func redacts(line: String, expected: String, count: Int) {
        let result = CommandRedaction.redact(line)
        #expect(result.text == expected)
        #expect(result.count == count)
    }
}
