import Foundation
import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("Paths noted for completion")
struct NotedPathsTests {
    private func response(at url: String) throws -> HTTPResponse {
        let parsed: URL = try #require(URL(string: url))
        return HTTPResponse(status: 200, url: parsed)
    }

    @Test("a response at another path than its request's notes that path; the same path with another query notes nothing")
    func responsePath() throws {
        let request = HTTPRequest(url: try #require(URL(string: "http://api.test/items?page=2")))
        var state = SessionState()
        state.notePaths(in: try response(at: "http://api.test/items?page=3#top"), to: request)
        #expect(state.paths.isEmpty)
        state.notePaths(in: try response(at: "http://api.test/items/moved?page=2"), to: request)
        #expect(state.paths == ["/items/moved"])
        state.notePaths(in: try response(at: "http://api.test/item"), to: request)
        #expect(state.paths == ["/items/moved", "/item"])
    }
}
