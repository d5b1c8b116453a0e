import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

/// The streaming upstream these tests read: `Tests/Support/Python/stream_server.py`, which
/// prints its port and answers `/events?count=N&gap=MS` with N server-sent events MS apart
/// (count=0: endless), each carrying `"i"` (0, 1, …) and the time it was sent.
enum ReplStreamUpstream {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The venv's Python (TAPEDECK_VENV, else the checkout's `.venv`), as the server tests use,
    /// else the system's: the script needs nothing but the standard library.
    static var python: String? {
        let venv = ProcessInfo.processInfo.environment["TAPEDECK_VENV"].map { $0 + "/bin/python" }
        return [venv, packageRoot.appendingPathComponent(".venv/bin/python").path, "/usr/bin/python3"]
            .compactMap { $0 }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Starts the server (stop it with `stop()`); returns it and its base URL.
    static func start() throws -> (TapedeckTestSupport.ServerProcess, String) {
        let script = packageRoot.appendingPathComponent("Tests/Support/Python/stream_server.py").path
        let server = try TapedeckTestSupport.ServerProcess(python ?? "/usr/bin/python3", arguments: [script], expecting: 1)
        return (server, "http://127.0.0.1:\(server.ports[0])")
    }
}

@Suite("REPL streams in a real terminal (tmux)", .serialized,
       .enabled(if: Binary.path != nil && TmuxSession.available && ReplStreamUpstream.python != nil,
                "needs tmux, python3 and the built binary"))
struct ReplStreamTests {
    /// Starts `tapedeck repl` in a fresh terminal and home, with recording allowed whatever the
    /// test's environment says (CI, TAPEDECK_RECORD_MODE cleared), waits for the prompt, runs
    /// `body`, and always stops the terminal.
    private func withRepl(_ body: (TmuxSession) throws -> Void) throws {
        let tmux = TmuxSession(home: try Binary.temporaryDirectory("repl-stream"))
        defer { tmux.stop(); try? FileManager.default.removeItem(at: tmux.home) }
        try tmux.start(["repl"], environment: ["CI": "", "TAPEDECK_RECORD_MODE": "",
                                               "TAPEDECK_USAGE_DIR": tmux.home.appendingPathComponent("usage").path])
        try #require(try tmux.waitFor { $0.contains("[live]>") }.matched, "the REPL did not start")
        try body(tmux)
    }

    /// The line the REPL prints for event `i` of the stream server (its data field).
    static func event(_ i: Int) -> String { "data: {\"i\":\(i),\"sent\":" }

    static func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    static func lines(_ screen: String) -> [String] {
        screen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether the screen's last line is a prompt ending in `prompt`, with nothing after it.
    static func atPrompt(_ screen: String, _ prompt: String) -> Bool {
        lines(screen).last(where: { !$0.isEmpty })?.hasSuffix(prompt) == true
    }

    /// N in "(stream stopped with Ctrl-C: N chunks, …)".
    static func stoppedCount(_ screen: String) -> Int? {
        guard let range = screen.range(of: "(stream stopped with Ctrl-C: ") else { return nil }
        return Int(String(screen[range.upperBound...].prefix { $0.isNumber }))
    }

    @Test("a server-sent event stream shows its head at once and each event as it arrives, then how it ended")
    func streamShownAsItArrives() throws {
        let (server, base) = try ReplStreamUpstream.start()
        defer { server.stop() }
        try withRepl { tmux in
            // Five events 700 ms apart: 2.8 s from the first to the last.
            try tmux.type("get \(base)/events?count=5&gap=700", then: "Enter")
            let first = try tmux.waitFor(15) { $0.contains(Self.event(0)) }
            try #require(first.matched, "the first event never showed: \(first.screen)")
            var shownAt = [Date()]
            #expect(first.screen.contains("HTTP/1.1 200 OK") && first.screen.contains("Content-Type: text/event-stream"),
                    "the head shows by the first event: \(first.screen)")
            #expect(!first.screen.contains(Self.event(3)) && !first.screen.contains("(stream "),
                    "the first event showed only once later ones had come, not as it arrived: \(first.screen)")
            for i in 1...4 {
                let next = try tmux.waitFor(10) { $0.contains(Self.event(i)) }
                try #require(next.matched, "event \(i) never showed: \(next.screen)")
                shownAt.append(Date())
                if i < 4 { #expect(!next.screen.contains("(stream "), "the stream ended at event \(i): \(next.screen)") }
            }
            let spread = shownAt[4].timeIntervalSince(shownAt[0])
            #expect(spread > 1.4, "events sent over 2.8 s showed within \(Int(spread * 1000)) ms of each other")

            let ended = try tmux.waitFor(10) { $0.contains("(stream ended: ") && Self.atPrompt($0, "[live]>") }
            try #require(ended.matched, "no summary and fresh prompt after the stream: \(ended.screen)")
            #expect(Self.lines(ended.screen).contains { $0.hasPrefix("(stream ended: 5 chunks, ") && $0.contains(" bytes in ") && $0.hasSuffix(" ms)") },
                    "\(ended.screen)")
            // The head, the events in order, then the summary; each once (the stream is not printed again whole).
            let marks = ["HTTP/1.1 200 OK"] + (0...4).map { Self.event($0) } + ["(stream ended: "]
            let positions = marks.compactMap { ended.screen.range(of: $0)?.lowerBound }
            #expect(positions.count == marks.count && positions == positions.sorted(), "out of order: \(ended.screen)")
            for mark in marks {
                #expect(Self.occurrences(of: mark, in: ended.screen) == 1, "'\(mark)' shown more than once: \(ended.screen)")
            }
            #expect(!ended.screen.contains("request cancelled") && !ended.screen.contains("<repl>:"), "\(ended.screen)")
            #expect(tmux.isRunning)
        }
    }

    @Test("one Ctrl-C ends an endless stream: what arrived stays on screen and in the cassette being recorded, and the REPL goes on")
    func ctrlCEndsStream() throws {
        let (server, base) = try ReplStreamUpstream.start()
        defer { server.stop() }
        try withRepl { tmux in
            let cassette = tmux.home.appendingPathComponent("stream.cassette.json")
            let prompt = "[record stream.cassette.json]>"
            try tmux.type("record \(cassette.path)", then: "Enter")
            let recording = try tmux.waitFor { Self.atPrompt($0, prompt) }
            try #require(recording.matched, "recording did not start: \(recording.screen)")

            try tmux.type("get \(base)/events?count=0&gap=300", then: "Enter")
            let flowing = try tmux.waitFor(15) { $0.contains(Self.event(3)) }
            try #require(flowing.matched, "the endless stream did not flow: \(flowing.screen)")
            #expect(!flowing.screen.contains("(stream "), "\(flowing.screen)")
            try tmux.send("C-c")
            // The next event is at most 300 ms away: one Ctrl-C, and the prompt is back well within 5 s.
            let stopped = try tmux.waitFor(5) { $0.contains("(stream stopped with Ctrl-C: ") && Self.atPrompt($0, prompt) }
            try #require(stopped.matched, "one Ctrl-C did not end the stream and bring the prompt back: \(stopped.screen)")
            let count = try #require(Self.stoppedCount(stopped.screen), "no chunk count in the summary: \(stopped.screen)")
            #expect(count >= 4, "events 0 to 3 were on screen before Ctrl-C, the summary says \(count): \(stopped.screen)")
            for i in 0..<count {
                #expect(Self.occurrences(of: Self.event(i), in: stopped.screen) == 1, "event \(i) not shown exactly once: \(stopped.screen)")
            }
            #expect(!stopped.screen.contains(Self.event(count)), "the summary's count (\(count)) is not the events shown: \(stopped.screen)")
            #expect(!stopped.screen.contains("request cancelled") && !stopped.screen.contains("(stream ended"),
                    "Ctrl-C ends the stream as a response, not as a cancelled request: \(stopped.screen)")
            #expect(tmux.isRunning)

            // The prompt works: another request, then `live` saves the cassette.
            try tmux.type("get \(base)/events?count=1", then: "Enter")
            let after = try tmux.waitFor(10) { $0.contains("(stream ended: 1 chunk, ") && Self.atPrompt($0, prompt) }
            #expect(after.matched, "the REPL did not take a request after Ctrl-C: \(after.screen)")
            try tmux.type("live", then: "Enter")
            let saved = try tmux.waitFor(10) { $0.contains("2 recorded") && Self.atPrompt($0, "[live]>") }
            try #require(saved.matched, "\(saved.screen)")
            #expect(tmux.isRunning)

            #expect(!FileManager.default.fileExists(atPath: cassette.path + ".journal"), "live merges the stream's journal into the cassette")
            let text = try String(contentsOf: cassette, encoding: .utf8)
            #expect(text.contains("\"chunks\""), "\(text.prefix(1500))")
            let loaded = try Cassette.load(from: cassette)
            let endless = try #require(loaded.interactions.first { $0.request.url.query?.contains("count=0") == true },
                                       "the stopped stream was not recorded: \(text.prefix(1500))")
            #expect(endless.response.status == 200 && endless.failure == nil)
            let chunks = try #require(endless.response.chunks, "the stopped stream was recorded without its chunks: \(text.prefix(1500))")
            let ids = chunks.flatMap { ServerSentEvents.parse($0.data).compactMap(\.id) }
            // Every event shown is recorded, in order. The one that arrived with Ctrl-C pending
            // may be recorded too (the response keeps it, though it is not printed).
            #expect(Array(ids.prefix(count)) == (0..<count).map { String($0) }, "recorded ids \(ids), \(count) shown")
            #expect(chunks.count == count || chunks.count == count + 1, "recorded \(chunks.count) chunks, \(count) shown")
            let single = loaded.interactions.first { $0.request.url.query == "count=1" }
            #expect(single?.response.chunks?.count == 1, "\(text.prefix(1500))")
        }
    }

    @Test("Ctrl-C ends a stream that has gone quiet at once, live and while recording, not at its next event")
    func ctrlCEndsQuietStream() throws {
        let (server, base) = try ReplStreamUpstream.start()
        defer { server.stop() }
        try withRepl { tmux in
            for (run, recording) in [false, true].enumerated() {
                let prompt = recording ? "[record quiet.cassette.json]>" : "[live]>"
                if recording {
                    try tmux.type("record \(tmux.home.appendingPathComponent("quiet.cassette.json").path)", then: "Enter")
                    let started = try tmux.waitFor { Self.atPrompt($0, prompt) }
                    try #require(started.matched, "recording did not start: \(started.screen)")
                }
                // One event, then 20 s of silence: a quiet stream is asked about Ctrl-C about once a second.
                try tmux.type("get \(base)/events?count=0&gap=20000", then: "Enter")
                let first = try tmux.waitFor(15) { Self.occurrences(of: Self.event(0), in: $0) == run + 1 }
                try #require(first.matched, "the stream did not begin: \(first.screen)")
                try tmux.send("C-c")
                let stopped = try tmux.waitFor(5) {
                    Self.occurrences(of: "(stream stopped with Ctrl-C: 1 chunk,", in: $0) == run + 1 && Self.atPrompt($0, prompt)
                }
                #expect(stopped.matched, "\(recording ? "recording" : "live"): Ctrl-C waited for the stream's next event: \(stopped.screen)")
                guard stopped.matched else { return }
            }
        }
    }
}
