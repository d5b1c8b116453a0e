import Foundation
import Testing
@testable import Tapedeck

@Suite("HTTP error messages")
struct HTTPErrorTests {
    @Test("each message names the value and the next step", arguments: [
        (HTTPError.cannotConnect(host: "localhost", port: 1), ["localhost:1", "is the server running"]),
        (HTTPError.hostNotFound("nope.invalid"), ["'nope.invalid'", "DNS"]),
        (HTTPError.timedOut(url: "http://h/delay/3", seconds: 1), ["http://h/delay/3", "after 1 s", "Options.timeout"]),
        (HTTPError.timedOut(url: "http://h/", seconds: 0.5), ["after 0.5 s"]),
        (HTTPError.tlsFailure(host: "h", detail: "self-signed"), ["self-signed", "does not verify"]),
        (HTTPError.unacceptableStatus(status: 404, reason: "Not Found", url: "http://h/x", body: Data("{\"e\":1}".utf8)),
         ["http://h/x answered 404 Not Found", "{\"e\":1}"]),
        (HTTPError.decodingFailed(type: "User", codingPath: "items[0].id", detail: "the key 'id' is missing"),
         ["User", "'items[0].id'", "missing"]),
        (HTTPError.cancelled(url: "http://h/"), ["cancelled"]),
        (HTTPError.noResponse(url: "http://h/", detail: "closed"), ["no response from http://h/"]),
        (HTTPError.invalidMethod("GE T"), ["'GE T'", "GET, POST"]),
    ])
    func messages(_ error: HTTPError, _ fragments: [String]) {
        let message = error.localizedDescription
        for fragment in fragments { #expect(message.contains(fragment), "\(message) lacks \(fragment)") }
    }

    @Test("the core's messages name library options, never a command-line flag", arguments: [
        HTTPError.timedOut(url: "http://h/", seconds: 1), .tlsFailure(host: "h", detail: "self-signed"),
        .cannotConnect(host: "h", port: 1), .invalidMethod("GE T"), .fileUnreadable(path: "a", reason: "no such file"),
    ])
    func noCommandLineWording(_ error: HTTPError) {
        let message = error.localizedDescription
        #expect(!message.contains("--"), "\(message)")
        #expect(message.hasPrefix(error.failure), "\(message)")
    }

    @Test("a long unacceptable body is cut at 512 bytes with an ellipsis")
    func longBody() {
        let error = HTTPError.unacceptableStatus(status: 500, reason: "x", url: "u", body: Data(repeating: 65, count: 2000))
        let message = error.localizedDescription
        #expect(message.hasSuffix("…"))
        #expect(message.count < 600)
    }
}
