import Foundation
import Testing
import Tapedeck

@Suite("Default request headers")
struct HTTPRequestDefaultsTests {
    let url = URL(string: "http://api.test/x")!

    @Test("User-Agent tapedeck/<version> and Accept */* go in front when missing")
    func added() {
        var request = HTTPRequest(url: url, headers: ["X-Trace": "1"])
        request.addDefaultHeaders()
        #expect(request.headers.fields.map { "\($0.name): \($0.value)" }
            == ["User-Agent: tapedeck/\(HTTPRequest.tapedeckVersion)", "Accept: */*", "X-Trace: 1"])
        #expect(HTTPRequest.defaultUserAgent.hasPrefix("tapedeck/"))
        #expect(!HTTPRequest.defaultUserAgent.contains("unknown"))
    }

    @Test("headers the request sets, in any case, are kept and not doubled")
    func kept() {
        var request = HTTPRequest(url: url, headers: ["accept": "application/json", "user-agent": "mine/1"])
        request.addDefaultHeaders()
        #expect(request.headers.fields.map { "\($0.name): \($0.value)" } == ["accept: application/json", "user-agent: mine/1"])
        request.addDefaultHeaders()
        #expect(request.headers.fields.count == 2)
    }
}
