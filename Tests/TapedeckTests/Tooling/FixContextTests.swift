import Foundation
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

/// Each error prints the fix that works where it is read: REPL commands, `tapedeck run` command
/// lines, or `swift test` and TapedeckTesting options, and never the others.
@Suite("Fixes worded for the REPL, tapedeck run and unit tests")
struct FixContextTests {
    static let path = "Sessions/feed.cassette.json"
    static let cassette = Cassette(interactions: [.make(.get, "http://api.test/feed?page=1&ts=111", body: "feed")])

    /// The report for `GET /feed?page=1&ts=222` (only the `ts` query item differs) after `played` identical requests.
    func report(_ context: FixContext, mode: RecordMode?, sending url: String = "http://api.test/feed?page=1&ts=222") -> String {
        report(wording: context, mode: mode, sending: url)
    }

    func report(wording context: any FixWording, mode: RecordMode?, sending url: String = "http://api.test/feed?page=1&ts=222") -> String {
        let replay = ReplayTransport(cassette: Self.cassette, path: Self.path, configuration: .init(URL(fileURLWithPath: "<memory>"), wording: context), mode: mode)
        guard case .failure(let error) = replay.lookup(HTTPRequest(url: URL(string: url)!)) else { return "served" }
        return error.description
    }

    func fixSection(_ text: String) -> String {
        text.components(separatedBy: "\nfix:\n").last ?? ""
    }

    @Test("the REPL is told the command to type, with the real path, and no Swift options")
    func repl() {
        let text = report(.repl, mode: .replayOnly)
        #expect(fixSection(text) == "  - record it: record Sessions/feed.cassette.json --mode new, then send the request again", "\(text)")
        #expect(!text.contains("swift test") && !text.contains("Matcher(") && !text.contains("tapedeck run"))
    }

    @Test("the REPL's exhausted repeat in a replay session offers replay PATH --repeat, then recording it")
    func replRepeat() {
        let replay = ReplayTransport(cassette: Self.cassette, path: Self.path, configuration: .init(URL(fileURLWithPath: "<memory>"), wording: FixContext.repl), mode: RecordMode.replayOnly)
        let request = HTTPRequest(url: URL(string: "http://api.test/feed?ts=111&page=1")!)
        _ = replay.lookup(request)
        guard case .failure(let error) = replay.lookup(request) else { Issue.record("a second identical request was served"); return }
        #expect(fixSection(error.description) == """
              - allow reusing the last match: replay Sessions/feed.cassette.json --repeat
              - record it: record Sessions/feed.cassette.json --mode new, then send the request again
            """)
    }

    @Test("tapedeck run is told its own command line: --match for the matcher, --record and --mode new")
    func run() {
        let replaying = report(.run(scripts: ["smoke.tape"]), mode: RecordMode.replayOnly)
        #expect(fixSection(replaying) == """
              - if those query items don't matter, ignore them: tapedeck run smoke.tape --replay Sessions/feed.cassette.json --match ignore-query:ts
              - record it: tapedeck run smoke.tape --record Sessions/feed.cassette.json --mode new
            """, "\(replaying)")
        let once = report(.run(scripts: ["smoke.tape", "my tests/login.tape"]), mode: .once)
        #expect(fixSection(once) == "  - if those query items don't matter, ignore them: tapedeck run smoke.tape 'my tests/login.tape' "
            + "--record Sessions/feed.cassette.json --mode once --match ignore-query:ts\n"
            + "  - record it: tapedeck run smoke.tape 'my tests/login.tape' --record Sessions/feed.cassette.json --mode new "
            + "(or TAPEDECK_RECORD_MODE=new tapedeck run smoke.tape 'my tests/login.tape' --record Sessions/feed.cassette.json)", "\(once)")
        #expect(!once.contains("swift test") && !once.contains("Matcher("))
    }

    @Test("unit tests are told the swift test line and the matcher option, in Swift")
    func unitTests() {
        let text = report(.unitTests(filter: "readsFeed"), mode: .once)
        #expect(fixSection(text) == """
              - if those query items don't matter, ignore them: pass matcher: Matcher(ignoredQueryItems: ["ts"]) \
            to withCassette, .cassette or URLSession.replaying
              - record it: TAPEDECK_RECORD_MODE=new swift test --filter readsFeed
            """, "\(text)")
        #expect(!text.contains("tapedeck run") && !text.contains("record Sessions"))
        let replayOnly = report(.unitTests(filter: nil), mode: nil)
        #expect(fixSection(replayOnly).hasSuffix("  - record it: URLSession.replaying never records; open the cassette with "
            + "withCassette(…) or URLSession.recording(to: …) instead, then run TAPEDECK_RECORD_MODE=new swift test --filter TEST_NAME"))
    }

    @Test("an origin-only difference tells the REPL which base to use, run its --origin and unit tests the origin option")
    func origin() {
        let moved = "http://127.0.0.1:8080/feed?page=1&ts=111"
        #expect(fixSection(report(.repl, mode: .replayOnly, sending: moved)) == """
              - send to where the cassette was recorded: base http://api.test
              - record it: record Sessions/feed.cassette.json --mode new, then send the request again
            """)
        #expect(fixSection(report(.run(scripts: ["a.tape"]), mode: RecordMode.replayOnly, sending: moved)) == """
              - serve the cassette at the origin you send to: tapedeck run a.tape --replay Sessions/feed.cassette.json --origin http://127.0.0.1:8080
              - record it: tapedeck run a.tape --record Sessions/feed.cassette.json --mode new
            """)
        #expect(fixSection(report(.unitTests(filter: "f"), mode: .once, sending: moved)).hasPrefix(
            #"  - serve the cassette at the origin you send to: pass origin: URL(string: "http://127.0.0.1:8080")! to withCassette"#))
    }

    @Test("a replay session at another origin offers the base URL at that origin")
    func sessionBaseAtOrigin() throws {
        let directory = TemporaryDirectory()
        var cassette = Self.cassette
        cassette.baseURL = URL(string: "http://api.test/v1")
        try cassette.write(to: directory.file("b.json"))
        let session = try CassetteSession(.replaying(directory.file("b.json"), origin: URL(string: "http://localhost:9000")!, wording: FixContext.run(scripts: [])))
        #expect(session.baseURL?.absoluteString == "http://localhost:9000/v1")
    }

    static let leaky = Interaction.make(.get, "http://api.test/login", requestHeaders: ["X-Session": "Bearer abcdefghijklmnop"],
                                        body: #"{"grant":"Bearer qrstuvwxyz012345"}"#)

    func lintMessage(_ context: FixContext) -> String {
        CassetteError.secretsFound(path: "Sessions/login.cassette.json", findings: SecretLint.findings(in: Self.leaky, index: 0),
                                   context: context).description
    }

    @Test("the lint refusal names environment variables on the command line and Redactor options in tests")
    func lint() {
        let head = """
            refusing to save Sessions/login.cassette.json: it still holds 2 secrets:
              - interaction 0, request header X-Session: bearer token "Bearer abcd…(16 chars)"
              - interaction 0, response body /grant: bearer token "Bearer qrst…(16 chars)"

            fix:

            """
        #expect(lintMessage(.repl) == head + """
              - redact them: quit and start tapedeck again with TAPEDECK_REDACT=x-session,/grant in the environment
              - for a false alarm: quit and start tapedeck again with TAPEDECK_SECRET_LINT=off in the environment
            """)
        #expect(lintMessage(.run(scripts: ["login.tape"])) == head + """
              - redact them: run again with TAPEDECK_REDACT=x-session,/grant in the environment
              - for a false alarm: run again with TAPEDECK_SECRET_LINT=off in the environment
            """)
        let redactor = #"Redactor(headers: Redactor.defaultHeaders.union(["x-session"]), jsonPaths: ["/grant"])"#
        #expect(lintMessage(.unitTests(filter: nil)) == head + """
              - redact them: pass redactor: \(redactor) to withCassette or .cassette (URLSession.recording(to: …) { $0.redactor = … })
              - for a false alarm: URLSession.recording(to: …) { $0.lint = false }
            """)
    }

    @Test("a response echoing a flagged header's value needs only the header redacted (the echo is scrubbed with it)")
    func echoedHeader() {
        let echo = Interaction.make(.get, "http://api.test/anything", requestHeaders: ["X-Session": "Bearer abcdefghijklmnop"],
                                    body: #"{"headers":{"X-Session":"Bearer abcdefghijklmnop"}}"#)
        let findings = SecretLint.findings(in: echo, index: 0)
        #expect(findings.count == 2)
        #expect(FixContext.run(scripts: []).lintFixes(findings).first == "redact them: run again with TAPEDECK_REDACT=x-session in the environment")
    }

    @Test("a missing cassette in replay-only mode names the way to record it there")
    func missing() {
        let path = "Sessions/none.cassette.json"
        #expect(CassetteError.missing(path: path, context: FixContext.repl).description.hasSuffix("record it first: record Sessions/none.cassette.json"))
        #expect(CassetteError.missing(path: path, context: FixContext.run(scripts: ["a.tape"])).description
            .hasSuffix("record it first: tapedeck run a.tape --record Sessions/none.cassette.json"))
        #expect(CassetteError.missing(path: path, context: FixContext.unitTests(filter: "login")).description
            .hasSuffix("record it first: TAPEDECK_RECORD_MODE=once swift test --filter login"))
    }

    @Test("paths inside the working directory are shown as typed, others as they are")
    func displayPath() {
        #expect(FixContext.display("/work/app/Sessions/a.json", workingDirectory: "/work/app") == "Sessions/a.json")
        #expect(FixContext.display("/work/application/a.json", workingDirectory: "/work/app") == "/work/application/a.json")
        #expect(FixContext.display("/tmp/a.json", workingDirectory: "/") == "tmp/a.json")
    }

    @Test("TAPEDECK_REDACT and TAPEDECK_SECRET_LINT=off do on the command line what the Fix lines promise")
    func environmentOptions() async throws {
        let directory = TemporaryDirectory()
        let live = StubTransport { _ in Self.leaky.response }
        let request = HTTPRequest(url: URL(string: "http://api.test/login")!, headers: ["X-Session": "Bearer abcdefghijklmnop"])

        let refusing = try CassetteSession(CassetteConfiguration(URL(fileURLWithPath: directory.file("a.json").path), mode: .all, wording: FixContext.run(scripts: []), environment: [:]), live: live)
        await #expect(throws: CassetteError.self) { try await refusing.transport.send(request) }

        let redacting = try CassetteSession(CassetteConfiguration(URL(fileURLWithPath: directory.file("b.json").path), mode: .all, wording: FixContext.run(scripts: []), environment: ["TAPEDECK_REDACT": "x-session, /grant"]), live: live)
        _ = try await redacting.transport.send(request)
        try redacting.cassette.flush()
        let saved = try String(contentsOf: directory.file("b.json"), encoding: .utf8)
        #expect(!saved.contains("abcdefghijklmnop") && !saved.contains("qrstuvwxyz012345"), "\(saved)")

        let unlinted = try CassetteSession(CassetteConfiguration(URL(fileURLWithPath: directory.file("c.json").path), mode: .all, wording: FixContext.run(scripts: []), environment: ["TAPEDECK_SECRET_LINT": "off"]), live: live)
        _ = try await unlinted.transport.send(request)
        try unlinted.cassette.flush()
        #expect(try String(contentsOf: directory.file("c.json"), encoding: .utf8).contains("qrstuvwxyz012345"))
    }

    @Test("a cut-short list of unused interactions points the command line at tapedeck cassette show, quoted")
    func listInteractions() {
        let interactions = (0..<8).map { Interaction.make(.get, "http://api.test/item/\($0)") }
        let replay = ReplayTransport(cassette: Cassette(interactions: interactions), path: "Sessions/big tour.json",
                                     configuration: .init(URL(fileURLWithPath: "<memory>"), wording: FixContext.run(scripts: [])))
        #expect(replay.unusedReport().split(separator: "\n").last == "  … and 3 more (tapedeck cassette show 'Sessions/big tour.json' lists them)")
    }

    @Test("the core's own wording names Swift options and no command: no tapedeck, swift test or --flag")
    func libraryWording() {
        let text = report(wording: .library, mode: .once)
        #expect(fixSection(text) == """
              - if those query items don't matter, ignore them: set CassetteConfiguration.matcher = Matcher(ignoredQueryItems: ["ts"])
              - record it: open the cassette with CassetteConfiguration(mode: .new) (or TAPEDECK_RECORD_MODE=new)
            """, "\(text)")
        let lint = CassetteError.secretsFound(path: "Sessions/login.cassette.json", findings: SecretLint.findings(in: Self.leaky, index: 0),
                                              context: .library).description
        for text in [text, lint, CassetteError.missing(path: "a.json", context: .library).description] {
            for word in ["tapedeck ", "swift test", "withCassette", "--", "TAPEDECK_REDACT"] { #expect(!text.contains(word), "\(text)") }
        }
    }
}
