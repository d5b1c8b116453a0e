import Foundation
@testable import Tapedeck
import TapedeckTestSupport
import Testing

@Suite("One way to open a cassette")
struct CassetteConfigurationTests {
    static func cassette(in directory: TemporaryDirectory, recordedDaysAgo days: Double = 0) throws -> URL {
        let url = directory.file("api.cassette.json")
        var interaction = Interaction.make(.get, "http://api.test/a")
        interaction.recordedAt = Date().addingTimeInterval(-days * 86_400)
        try Cassette(interactions: [interaction]).write(to: url)
        return url
    }

    @Test("replay only is a plain ReplayTransport that leaves nothing beside the cassette: no lock, no journal")
    func replayOnlyWritesNothing() async throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let opened = try CassetteConfiguration.replaying(url, environment: [:]).open()
        #expect(opened.recorder == nil)
        #expect(opened.replay != nil)
        #expect(opened.transport is ReplayTransport)
        _ = try await opened.transport.send(HTTPRequest(url: URL(string: "http://api.test/a")!))
        await #expect(throws: CassetteError.self) { try await opened.transport.send(HTTPRequest(url: URL(string: "http://api.test/b")!)) }
        try opened.flush()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before)
        #expect(opened.counts == OpenCassette.Counts(recorded: 0, played: 1, unused: 0, total: 1))
    }

    @Test("a recording mode opens a RecordingTransport around the live transport")
    func recordingModes() throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory)
        for mode in [RecordMode.once, .new, .all] {
            let opened = try CassetteConfiguration(url, mode: mode, environment: [:]).open(live: StubTransport { _ in HTTPResponse(status: 204) })
            #expect(opened.recorder != nil && opened.replay == nil, "\(mode)")
            #expect(opened.mode == mode)
        }
    }

    @Test("a cassette missing because CI made replay-only the default says so and how to record anyway; an explicit none does not")
    func missingUnderCI() throws {
        let url = URL(fileURLWithPath: "/nowhere/api.cassette.json")
        do {
            _ = try CassetteConfiguration(url, environment: ["CI": "true"]).open()
            Issue.record("a missing cassette in mode none opened")
        } catch {
            #expect(error.localizedDescription.contains("CI is set") && error.localizedDescription.contains("TAPEDECK_RECORD_MODE=once"))
        }
        do {
            _ = try CassetteConfiguration(url, mode: .replayOnly, environment: ["CI": "true"]).open()
            Issue.record("a missing cassette in mode none opened")
        } catch {
            #expect(!error.localizedDescription.contains("CI is set"))
        }
    }

    @Test("the environment is applied in one place: mode override, CI, redaction, lint, and only once")
    func environment() throws {
        let url = URL(fileURLWithPath: "/nowhere/api.cassette.json")
        #expect(try CassetteConfiguration(url, mode: .new, environment: ["TAPEDECK_RECORD_MODE": "all"]).resolved().mode == .all)
        #expect(try CassetteConfiguration(url, environment: ["CI": "true"]).resolved().mode == .replayOnly)
        #expect(try CassetteConfiguration(url, environment: [:]).resolved().mode == .once)
        #expect(try CassetteConfiguration.replaying(url, environment: ["TAPEDECK_RECORD_MODE": "all"]).resolved().mode == .replayOnly,
                "replay PATH, run --replay and serve replay whatever the environment says")
        #expect(throws: CassetteError.self) { try CassetteConfiguration(url, environment: ["TAPEDECK_RECORD_MODE": "sometimes"]).resolved() }

        let resolved = try CassetteConfiguration(url, environment: ["TAPEDECK_REDACT": "X-Session, /grant", "TAPEDECK_SECRET_LINT": "off",
                                                                   "TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "fail"]).resolved()
        #expect(resolved.redactor.headers.contains("x-session") && resolved.redactor.queryItems.contains("x-session"))
        #expect(resolved.redactor.jsonPaths.contains("/grant"))
        #expect(!resolved.lint)
        #expect(resolved.maxAge?.description == "30d" && resolved.onExpiry == .fail)
        let twice = try resolved.resolved()
        #expect(twice.redactor == resolved.redactor && twice.mode == resolved.mode && twice.lint == resolved.lint)
        #expect(throws: CassetteError.self) { try CassetteConfiguration(url, environment: ["TAPEDECK_MAX_AGE": "a while"]).resolved() }
    }

    @Test("expiry is decided when the cassette opens: warn goes on, fail throws, rerecord records again")
    func expiry() throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory, recordedDaysAgo: 40)
        let live = StubTransport { _ in HTTPResponse(status: 204) }
        let warned = try CassetteConfiguration.replaying(url, environment: ["TAPEDECK_MAX_AGE": "30d"]).open(live: live)
        #expect(warned.mode == .replayOnly)
        #expect(warned.warnings.count == 1 && warned.warnings[0].contains("1 of 1 interactions"), "\(warned.warnings)")
        #expect {
            try CassetteConfiguration.replaying(url, environment: ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "fail"]).open(live: live)
        } throws: { error in
            guard case .expiry(.expired) = error as? CassetteError else { return false }
            return true
        }
        var rerecord = CassetteConfiguration(url, environment: [:])
        rerecord.maxAge = try MaxAge(parsing: "30d", source: "--max-age")
        rerecord.onExpiry = .rerecord
        let again = try rerecord.open(live: live)
        #expect(again.mode == .all && again.recorder != nil)
        #expect(try CassetteConfiguration.replaying(url, environment: ["TAPEDECK_MAX_AGE": "60d"]).open().warnings.isEmpty)
    }

    @Test("a missing cassette in replay only names the fix in the configuration's wording")
    func missing() {
        let url = URL(fileURLWithPath: TestScratch.path("missing").path + ".json")
        #expect {
            try CassetteConfiguration.replaying(url, environment: [:]).open()
        } throws: { error in
            guard case .missing = error as? CassetteError else { return false }
            return (error as? CassetteError)?.errorDescription?.contains("CassetteConfiguration(mode: .once)") == true
        }
    }

    @Test("network conditions are played over the opened transport")
    func conditions() async throws {
        let directory = TemporaryDirectory()
        var configuration = CassetteConfiguration.replaying(try Self.cassette(in: directory), environment: [:])
        configuration.conditions = NetworkConditions(faults: [try FaultRule(parsing: "GET /a=status:503")])
        let opened = try configuration.open()
        #expect(try await opened.transport.send(HTTPRequest(url: URL(string: "http://api.test/a")!)).status == 503)
    }

    @Test("a replay-only front-end cannot re-record an expired cassette: it warns and keeps replaying, never sends")
    func rerecordWhileReplaying() async throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory, recordedDaysAgo: 40)
        let opened = try CassetteConfiguration.replaying(url, environment: ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "rerecord"]).open()
        #expect(opened.mode == .replayOnly && opened.recorder == nil)
        #expect(opened.warnings.first?.contains("cannot re-record it") == true, "\(opened.warnings)")
        #expect(try await opened.transport.send(HTTPRequest(url: URL(string: "http://api.test/a")!)).status == 200)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["api.cassette.json"])
    }

    @Test("a session that replaces the cassette (mode all) is not stopped by expiry")
    func expiryIgnoredWhenReplacing() throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory, recordedDaysAgo: 40)
        let opened = try CassetteConfiguration(url, mode: .all, environment: ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "fail"])
            .open(live: StubTransport { _ in HTTPResponse(status: 204) })
        #expect(opened.mode == .all && opened.warnings.isEmpty)
    }

    @Test("a cassette served at another origin still reads as the file holds it (what usage records fingerprint)")
    func originKeepsTheFile() throws {
        let directory = TemporaryDirectory()
        let url = try Self.cassette(in: directory)
        let opened = try CassetteConfiguration.replaying(url, origin: URL(string: "http://127.0.0.1:9999")!, environment: [:]).open()
        #expect(opened.cassette.interactions.first?.request.url.host == "api.test")
        #expect(opened.replay?.cassette.interactions.first?.request.url.host == "127.0.0.1")
    }
}
