import Foundation
import TapedeckServer
import Testing

/// A request's path as every handler of a chain reads it: worked out once from the target,
/// and again whenever the target changes.
@Suite("Incoming request")
struct IncomingRequestTests {
    @Test("an origin-form target gives its path and query, and its path alone")
    func originForm() {
        let request = IncomingRequest(method: "GET", target: "/items/3?page=3&sort=asc")
        #expect(request.pathAndQuery == "/items/3?page=3&sort=asc")
        #expect(request.path == "/items/3")
    }

    @Test("an absolute-form target, as a client sends a proxy, gives the path and query of its URL")
    func absoluteForm() {
        let request = IncomingRequest(method: "GET", target: "HTTP://api.example.com:8080/v1/users?id=7")
        #expect(request.pathAndQuery == "/v1/users?id=7")
        #expect(request.path == "/v1/users")
        #expect(IncomingRequest(method: "GET", target: "http://api.example.com").pathAndQuery == "/")
    }

    @Test("an empty target reads as the root")
    func emptyTarget() {
        let request = IncomingRequest(method: "GET", target: "")
        #expect(request.pathAndQuery == "/")
        #expect(request.path == "/")
    }

    @Test("a target changed after the request was made changes its path too")
    func changedTarget() {
        var request = IncomingRequest(method: "GET", target: "/old?x=1")
        request.target = "http://127.0.0.1:8080/new/place?y=2"
        #expect(request.pathAndQuery == "/new/place?y=2")
        #expect(request.path == "/new/place")
        #expect(request == IncomingRequest(method: "GET", target: "http://127.0.0.1:8080/new/place?y=2"))
    }
}
