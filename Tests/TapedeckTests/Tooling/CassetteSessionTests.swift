import Foundation
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

@Suite("Cassette sessions (what the REPL, scripts and the CLI hold)")
struct CassetteSessionTests {
    /// A usage directory that can never be created: its parent is a regular file (root ignores
    /// permissions, so a read-only directory would not do).
    static func unwritableUsageDirectory(in directory: TemporaryDirectory) throws -> String {
        let blocker = directory.file("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        return blocker.appendingPathComponent("usage").path
    }

    /// A replay session on a two-interaction cassette (`GET /a`, `GET /b`) that has played `path`.
    static func replaySession(in directory: TemporaryDirectory, playing path: String) async throws -> (URL, CassetteSession) {
        let url = directory.file("s.cassette.json")
        try Cassette(interactions: [.make(.get, "http://api.test/a", body: "a"), .make(.get, "http://api.test/b", body: "b")])
            .write(to: url)
        let session = try CassetteSession(.replaying(url))
        _ = try await session.transport.send(HTTPRequest(url: URL(string: "http://api.test" + path)!))
        return (url, session)
    }

    @Test("finish still succeeds when the usage record cannot be written, and says so in a warning line")
    func usageFailureIsAWarning() async throws {
        let directory = TemporaryDirectory()
        let (url, session) = try await Self.replaySession(in: directory, playing: "/a")
        let usageDir = try Self.unwritableUsageDirectory(in: directory)

        let text = try session.finish(environment: ["TAPEDECK_USAGE_DIR": usageDir])

        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first == "replay \(url.path) · 0 recorded · 1 played · 1 unused · 2 in cassette")
        let warning = try #require(lines.last)
        #expect(warning.hasPrefix("warning: usage record not saved, so `tapedeck cassette prune` cannot use this run: "))
        #expect(warning.contains(usageDir))
        #expect(warning.hasSuffix("set TAPEDECK_USAGE_DIR to a writable directory (the cassette itself is fine)"))
    }

    @Test("finish writes the usage record where TAPEDECK_USAGE_DIR says, with no warning")
    func usageWritten() async throws {
        let directory = TemporaryDirectory()
        let (url, session) = try await Self.replaySession(in: directory, playing: "/b")
        let environment = ["TAPEDECK_USAGE_DIR": directory.file("usage").path]

        let text = try session.finish(environment: environment)

        #expect(!text.contains("warning"))
        let usage = try CassetteUsage.read(for: url, environment: environment)
        #expect(usage.unused == [0])
        #expect(usage.interactionCount == 2)
    }

    @Test("a usage record naming an interaction the cassette does not have is refused at its place, with the fix")
    func usageOutOfRange() async throws {
        let directory = TemporaryDirectory()
        let (url, session) = try await Self.replaySession(in: directory, playing: "/b")
        let environment = ["TAPEDECK_USAGE_DIR": directory.file("usage").path]
        _ = try session.finish(environment: environment)
        let record = CassetteUsage.url(for: url, environment: environment)
        for unused in ["[-1, 0]", "[2]"] {
            let text = try String(decoding: Data(contentsOf: record), as: UTF8.self)
            let edited = text.replacingOccurrences(of: #""unused" *: *\[[^\]]*\]"#, with: "\"unused\": \(unused)", options: .regularExpression)
            try Data(edited.utf8).write(to: record)
            let error = #expect(throws: InteropError.self) { try CassetteUsage.read(for: url, environment: environment) }
            let message = error?.errorDescription ?? ""
            #expect(message.contains("unused[0]"), "\(message)")
            #expect(message.contains("is not one of the cassette's 2") && message.contains("replay"), "\(message)")
        }
    }

    @Test("a replay served at another origin keeps one copy, shows the file's cassette, and writes a usage record that matches the file")
    func servedAtAnotherOrigin() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("o.cassette.json")
        let file = Cassette(interactions: [.make(.get, "http://api.test/a?next=http://api.test/b", body: "see http://api.test/b"),
                                           .make(.get, "http://api.test/b", body: "b")])
        try file.write(to: url)
        var configuration = CassetteConfiguration.replaying(url)
        configuration.origin = URL(string: "http://127.0.0.1:8080")
        let session = try CassetteSession(configuration)
        let answer = try await session.transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/a?next=http://127.0.0.1:8080/b")!))
        #expect(answer.text == "see http://127.0.0.1:8080/b", "served rewritten to the origin")
        let replay = try #require(session.cassette.replay)
        #expect(replay.originRewrite?.recorded.absoluteString == "http://api.test")
        #expect(session.cassette.cassette.interactions.map(\.request.url) == file.interactions.map(\.request.url))
        #expect(session.cassette.cassette.interactions.first?.response.text == "see http://api.test/b")
        let environment = ["TAPEDECK_USAGE_DIR": directory.file("usage").path]
        _ = try session.finish(environment: environment)
        let usage = try CassetteUsage.read(for: url, environment: environment)
        #expect(usage.matches(try Cassette.load(from: url)), "the usage fingerprint is the file's, not the served copy's")
        #expect(usage.unused == [1])
    }

    @Test("a failure to write the cassette itself still throws, naming the file")
    func cassetteFailureThrows() async throws {
        let directory = TemporaryDirectory()
        let blocker = directory.file("file")
        try Data("x".utf8).write(to: blocker)
        let url = blocker.appendingPathComponent("new.cassette.json")
        let live = StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8)) }
        var configuration = CassetteConfiguration(url, mode: .all, wording: FixContext.run(scripts: []), environment: [:])
        configuration.autosave = false
        let session = try CassetteSession(configuration, live: live)
        _ = try await session.transport.send(HTTPRequest(url: URL(string: "http://api.test/a")!))
        #expect {
            try session.finish(environment: ["TAPEDECK_USAGE_DIR": directory.file("usage").path])
        } throws: { error in
            (error as? CassetteError)?.errorDescription?.hasPrefix("cannot write cassette \(url.path)") == true
        }
    }
}
