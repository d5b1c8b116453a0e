import Foundation
import Synchronization
import Tapedeck
import Testing
@testable import TapedeckShell

/// A server with redirects and a slow path, remembering every request.
final class RedirectServer: Sendable {
    let requests = Mutex<[HTTPRequest]>([])

    var transport: StubTransport {
        StubTransport { request in
            self.requests.withLock { $0.append(request) }
            switch request.url.path {
            case "/slow":
                try await Task.sleep(for: .seconds(120))
                return HTTPResponse(status: 200, headers: [:], body: Data(), duration: 120)
            case "/loop":
                return HTTPResponse(status: 302, headers: ["Location": "/loop"], body: Data(), duration: 0)
            case "/post-303":
                return HTTPResponse(status: 303, headers: ["Location": "/final"], body: Data(), duration: 0)
            case "/keep-307":
                return HTTPResponse(status: 307, headers: ["Location": "/final"], body: Data(), duration: 0)
            case "/gopher":
                return HTTPResponse(status: 302, headers: ["Location": "gopher://127.0.0.1:70/_QUIT"], body: Data(), duration: 0)
            case "/away":
                return HTTPResponse(status: 302, headers: ["Location": "http://other.test/final"], body: Data(), duration: 0)
            default:
                return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("final".utf8), duration: 0)
            }
        }
    }

    var paths: [String] { requests.withLock { $0.map { "\($0.method) \($0.url.host ?? "")\($0.url.path)" } } }
}

@MainActor
@Suite("Timeouts and redirects, per session and per request")
struct ExchangeTests {
    let server = RedirectServer()
    let captured = Captured()

    private func shell(timeout: TimeInterval = 30, follow: Bool = false, echo: Bool = false) -> Interpreter {
        Interpreter(transport: server.transport, output: captured.output,
                    options: .init(environment: [:], echoResponses: echo, timeout: timeout, followRedirects: follow))
    }

    private func failure(_ shell: Interpreter, _ source: String) async -> ShellError? {
        do {
            try await shell.run(source: "base http://api.test\n" + source, file: "t.tape")
            return nil
        } catch {
            return error
        }
    }

    @Test("request flags parse: --timeout N, --timeout=N, --follow, -F; a bad number is located")
    func flags() throws {
        guard case .request(let request)? = try Parser.parseLine("get /x --timeout 5 --follow", file: "t.tape") else {
            Issue.record("not a request")
            return
        }
        #expect(request.timeout?.text == "5" && request.follow && request.target?.text == "/x")
        guard case .request(let other)? = try Parser.parseLine("post /x -F --timeout=0.5 a=1", file: "t.tape") else {
            Issue.record("not a request")
            return
        }
        #expect(other.timeout?.text == "0.5" && other.follow && other.items.map(\.text) == ["a=1"])
        #expect(throws: ParseError.self) { try Parser.parseLine("get /x --timeout soon", file: "t.tape") }
        do {
            _ = try Parser.parseLine("get /x --timeout -1", file: "t.tape")
        } catch {
            #expect(error.location.column == 18)
            #expect(error.message.contains("a number of seconds for --timeout"))
        }
    }

    @Test("a request's --timeout and the session's timeout stop a slow exchange with a timed-out error")
    func timeouts() async throws {
        // The timed-out error is the proof: the slow path would answer 200 after two minutes.
        let perRequest = await failure(shell(), "get /slow --timeout 0.2")
        #expect(perRequest?.localizedDescription == "t.tape:2:1: request to http://api.test/slow timed out after 0.2 s; raise it with --timeout SECONDS")
        let session = await failure(shell(timeout: 0.2), "get /slow")
        #expect(session?.localizedDescription.contains("timed out after 0.2 s") == true)
        #expect(session?.category == .runtime)
        let variable = shell()
        variable.state.variables["t"] = "0.1"
        #expect(await failure(variable, "get /slow --timeout {{t}}")?.localizedDescription.contains("after 0.1 s") == true)
    }

    @Test("redirects are not followed by default; the REPL says how to follow them")
    func noFollow() async throws {
        let shell = shell(echo: true)
        try await shell.run(source: "base http://api.test\nget /loop\nexpect 302\nexpect header Location == /loop\n", file: "t.tape")
        #expect(server.paths == ["GET api.test/loop"])
        #expect(captured.value.contains("(redirect to http://api.test/loop not followed; add --follow to the request to follow it)"))
    }

    @Test("--follow follows hop by hop as curl -L does, and show curl says -L")
    func follow() async throws {
        let shell = shell()
        try await shell.run(source: "base http://api.test\npost /post-303 a=1 --follow\nexpect 200\nexpect body == final\nshow curl\n", file: "t.tape")
        #expect(server.paths == ["POST api.test/post-303", "GET api.test/final"])
        let last = try #require(server.requests.withLock { $0.last })
        #expect(last.body == nil && last.headers["Content-Type"] == nil)
        #expect(captured.value.contains("curl -L -X POST http://api.test/post-303"))

        try await self.shell(follow: true).run(source: "base http://api.test\nput /keep-307 a=1\nget /away Authorization:secret\n", file: "t.tape")
        let hops = server.requests.withLock { Array($0.suffix(4)) }
        #expect(hops.map(\.method) == [.put, .put, .get, .get])
        #expect(hops[1].body == hops[0].body)
        #expect(hops[3].url.host == "other.test" && hops[3].headers["Authorization"] == nil)
    }

    @Test("a redirect loop stops with a message instead of spinning")
    func loop() async {
        let error = await failure(shell(follow: true), "get /loop")
        #expect(error?.localizedDescription.contains("more than 30 redirects") == true)
        #expect(server.paths.count == 31)
    }

    @Test("--follow refuses a redirect to another protocol, naming the scheme, and sends nothing there; without it the REPL says why")
    func otherScheme() async throws {
        let error = await failure(shell(follow: true), "get /gopher")
        #expect(error?.localizedDescription.contains("which has the scheme 'gopher'; only http and https redirects are followed") == true)
        #expect(server.paths == ["GET api.test/gopher"])

        try await shell(echo: true).run(source: "base http://api.test\nget /gopher\nexpect 302\n", file: "t.tape")
        #expect(captured.value.contains("(redirect not followed: http://api.test/gopher redirects to 'gopher://127.0.0.1:70/_QUIT', which has the scheme 'gopher'; only http and https redirects are followed)"))
    }
}
