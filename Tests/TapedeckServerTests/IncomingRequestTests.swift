import Foundation
import TapedeckServer
import Testing

/// A request's path as every handler of a chain reads it: worked out once from the target,
/// and again whenever the target changes.
@Suite("Incoming request")
struct IncomingRequestTests {
    @Test("a target gives its path and query, and its path alone: origin-form, absolute-form as a client sends a proxy, and empty as the root",
          arguments: [
              ("/items/3?page=3&sort=asc", "/items/3?page=3&sort=asc", "/items/3"),
              ("HTTP://api.example.com:8080/v1/users?id=7", "/v1/users?id=7", "/v1/users"),
              ("http://api.example.com", "/", "/"),
              ("", "/", "/"),
          ])
    func parts(target: String, pathAndQuery: String, path: String) {
        let request = IncomingRequest(method: "GET", target: target)
        #expect(request.pathAndQuery == pathAndQuery)
        #expect(request.path == path)
    }

    @Test("a target changed after the request was made changes its path too")
    func changedTarget() {
        var request = IncomingRequest(method: "GET", target: "/old?x=1")
        request.target = "http://127.0.0.1:8080/new/place?y=2"
        #expect(request.pathAndQuery == "/new/place?y=2")
        #expect(request.path == "/new/place")
        #expect(request == IncomingRequest(method: "GET", target: "http://127.0.0.1:8080/new/place?y=2"))
    }

    @Test("a request inside a tunnel is the request for its origin and target, with the target's own path and query",
          arguments: ["/", "/items/3?page=3&sort=asc", "/a/b/?", "/v1/users?id=7&q=a%20b", "//double/slash", "/x?y?z", "/search?q=[1]@x:y",
                     "/a:b@c;d=e,f!$&'()*+", "/%41%7e?%2F", "/%zz?q", "/p%4", "/p[1]", "/q?%", "/~user/-._"])
    func tunnel(target: String) {
        for origin in ["https://api.example.com", "https://127.0.0.1:8443", "https://[::1]:8443"] {
            let tunnelled = IncomingRequest(method: "GET", tunnel: origin, originForm: target, headers: ["Host": "x"], remoteAddress: "127.0.0.1")
            let whole = IncomingRequest(method: "GET", target: origin + target, headers: ["Host": "x"], remoteAddress: "127.0.0.1")
            #expect(tunnelled == whole, "\(origin)\(target)")
            #expect(tunnelled.pathAndQuery == whole.pathAndQuery && tunnelled.path == whole.path, "\(origin)\(target)")
        }
    }
}
