import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckShell

@MainActor
@Suite("Prompt commands: clear, and why a recording went to the network")
struct PromptCommandsTests {
    @Test("clear erases a terminal screen and writes nothing when output is not a terminal")
    func clear() async throws {
        let captured = Captured()
        let terminal = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) }, output: captured.output,
                                   options: .init(environment: [:], colors: true))
        try await terminal.run(source: "clear", file: SourceLocation.prompt)
        #expect(captured.value == "\u{1B}[H\u{1B}[2J\u{1B}[3J")
        let piped = Captured()
        let script = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) }, output: piped.output,
                                 options: .init(environment: [:], colors: false))
        try await script.run(source: "clear\nprint done", file: "t.tape")
        #expect(piped.value == "done\n")
        #expect(CommandHelp.detail("clear")?.contains("clear the terminal") == true)
        #expect(terminal.state.history.isEmpty)
    }

    @Test("a request that cannot connect while recording says the cassette was missing, so it was recording")
    func recordingConnectionFailure() async throws {
        let folder = TestScratch.path("tapedeck-recfail")
        defer { try? FileManager.default.removeItem(at: folder) }
        let refused = StubTransport { _ in throw HTTPError.cannotConnect(host: "127.0.0.1", port: 9) }
        let shell = Interpreter(transport: refused, output: ShellOutput { _ in },
                                options: .init(environment: [:], workingDirectory: folder))
        shell.cassettes = CassetteController(environment: [:])
        let cassette = folder.appendingPathComponent("new.cassette.json").path
        do {
            try await shell.run(source: "record new.cassette.json\nget http://127.0.0.1:9/x", file: SourceLocation.prompt)
            Issue.record("the refused connection did not fail")
        } catch {
            let message = error.localizedDescription
            #expect(message.contains("cannot connect to 127.0.0.1:9"))
            #expect(message.contains("(recording: \(cassette) did not exist, so mode once sends requests to the network to record them)"), "\(message)")
        }
        do {
            try await shell.run(source: "live\nget http://127.0.0.1:9/x", file: SourceLocation.prompt)
        } catch {
            #expect(!error.localizedDescription.contains("recording"))
        }
    }
}
