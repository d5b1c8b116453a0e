import Foundation
import Tapedeck
import Testing
@testable import TapedeckShell

@MainActor
@Suite("A failed request leaves no response behind")
struct FailedRequestTests {
    let captured = Captured()

    private var shell: Interpreter {
        let transport = StubTransport { request in
            if request.url.path == "/report" {
                throw HTTPError.noResponse(url: request.url.absoluteString, detail: "no recorded interaction matches\n  line two of the report\n  line three")
            }
            guard request.url.path == "/ok" else { throw HTTPError.cannotConnect(host: "127.0.0.1", port: 9) }
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"a":1}"#.utf8))
        }
        return Interpreter(transport: transport, output: captured.output, options: .init(environment: [:], echoResponses: false))
    }

    private func error(_ shell: Interpreter, _ line: String) async -> ShellError? {
        do {
            try await shell.run(source: line, file: "t.tape")
            return nil
        } catch {
            return error
        }
    }

    @Test("after a refused connection, expect, capture and show response fail saying the request failed, not the older response")
    func clears() async throws {
        let shell = shell
        try await shell.run(source: "base http://127.0.0.1:9\nget /ok\nexpect 200\n", file: "t.tape")
        let sent = await error(shell, "get /nothing")
        #expect(sent?.localizedDescription.contains("cannot connect to 127.0.0.1:9") == true)
        #expect(shell.state.lastResponse == nil)
        for line in ["expect 200", "capture a = json $.a", "show response"] {
            let failure = try #require(await error(shell, line), "'\(line)' passed against the older response")
            guard case .requestFailed(_, let reason, _) = failure else {
                Issue.record("unexpected error: \(failure)")
                continue
            }
            #expect(reason.hasPrefix("GET http://127.0.0.1:9/nothing at t.tape:1:1: cannot connect"), "\(reason)")
            #expect(failure.localizedDescription.contains("has no response to check: the last request failed"))
            #expect(!failure.localizedDescription.contains("200"))
        }
        try await shell.run(source: "get /ok\nexpect 200\n", file: "t.tape")
    }

    @Test("expect after a request whose error was a long report names it in one line, not the report again")
    func oneLine() async throws {
        let shell = shell
        try await shell.run(source: "base http://127.0.0.1:9\n", file: "t.tape")
        let sent = await error(shell, "get /report")
        #expect(sent?.localizedDescription.contains("line two of the report") == true)
        let failure = try #require(await error(shell, "expect 200"))
        let text = failure.localizedDescription
        #expect(!text.contains("line two"), "\(text)")
        #expect(text.contains("at t.tape:1:1:") && text.contains("(the report is above)"), "\(text)")
    }
}
