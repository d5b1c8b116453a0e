import Foundation
import Synchronization
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

/// A fake server that counts what reaches it and answers "live N".
final class CountingServer: Sendable {
    let hits = Mutex(0)
    var transport: StubTransport {
        StubTransport { request in
            let count = self.hits.withLock { hits in
                hits += 1
                return hits
            }
            return HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data("live \(count) \(request.url.path)".utf8))
        }
    }
    var count: Int { hits.withLock { $0 } }
}

@Suite("Recording transport")
struct RecordingTransportTests {
    func get(_ path: String) -> HTTPRequest { HTTPRequest(url: URL(string: "http://api.test" + path)!) }
    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    /// A cassette file holding one recorded `GET /a` answered "recorded".
    func existing(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("modes.cassette.json")
        try Cassette(interactions: [.make(.get, "http://api.test/a", body: "recorded")]).write(to: url)
        return url
    }

    @Test("once: replays when the cassette exists and records everything when it is missing")
    func once() async throws {
        let directory = TemporaryDirectory()
        let server = CountingServer()
        let present = try RecordingTransport(configuration: CassetteConfiguration(try existing(directory), mode: .once, environment: [:]), inner: server.transport)
        #expect(text(try await present.send(get("/a"))) == "recorded")
        await #expect(throws: CassetteError.self) { try await present.send(get("/b")) }
        #expect(server.count == 0)

        let missing = directory.file("new.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(missing, mode: .once, environment: [:]), inner: server.transport)
        #expect(text(try await recorder.send(get("/a"))) == "live 1 /a")
        #expect(try Cassette.load(from: missing).interactions.count == 1, "saved after the interaction")
    }

    @Test("new: replays matches and records and appends the rest")
    func new() async throws {
        let directory = TemporaryDirectory()
        let server = CountingServer()
        let url = try existing(directory)
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .new, environment: [:]), inner: server.transport)
        #expect(text(try await recorder.send(get("/a"))) == "recorded")
        #expect(text(try await recorder.send(get("/b"))) == "live 1 /b")
        #expect(try Cassette.load(from: url).interactions.map(\.request.url.path) == ["/a", "/b"])
        #expect(recorder.counts == .init(recorded: 1, played: 1, unused: 0, total: 2))

        let fresh = try RecordingTransport(configuration: CassetteConfiguration(directory.file("fresh.json"), mode: .new, environment: [:]), inner: server.transport)
        #expect(text(try await fresh.send(get("/c"))) == "live 2 /c")
    }

    @Test("all: always sends live and replaces the file")
    func all() async throws {
        let directory = TemporaryDirectory()
        let server = CountingServer()
        let url = try existing(directory)
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: server.transport)
        #expect(text(try await recorder.send(get("/a"))) == "live 1 /a")
        let saved = try Cassette.load(from: url)
        #expect(saved.interactions.map { String(decoding: $0.response.body, as: UTF8.self) } == ["live 1 /a"])
        let missing = try RecordingTransport(configuration: CassetteConfiguration(directory.file("none-yet.json"), mode: .all, environment: [:]), inner: server.transport)
        _ = try await missing.send(get("/z"))
        #expect(server.count == 2)
    }

    @Test("none: replays only, fails unmatched requests, and refuses a missing cassette")
    func none() async throws {
        let directory = TemporaryDirectory()
        let server = CountingServer()
        let replay = try RecordingTransport(configuration: CassetteConfiguration(try existing(directory), mode: .replayOnly, environment: [:]), inner: server.transport)
        #expect(text(try await replay.send(get("/a"))) == "recorded")
        await #expect(throws: CassetteError.self) { try await replay.send(get("/b")) }
        #expect(server.count == 0)
        #expect(throws: CassetteError.self) {
            try RecordingTransport(configuration: CassetteConfiguration(directory.file("absent.json"), mode: .replayOnly, environment: [:]), inner: server.transport)
        }
    }

    @Test("TAPEDECK_RECORD_MODE overrides the mode and CI makes the default none")
    func modeResolution() throws {
        #expect(try RecordMode.resolve(nil, environment: [:]) == .once)
        #expect(try RecordMode.resolve(nil, environment: ["CI": "true"]) == .replayOnly)
        #expect(try RecordMode.resolve(.new, environment: ["CI": "true"]) == .new)
        #expect(try RecordMode.resolve(nil, environment: ["TAPEDECK_RECORD_MODE": "all"]) == .all)
        #expect(throws: CassetteError.self) { try RecordMode.resolve(nil, environment: ["TAPEDECK_RECORD_MODE": "sometimes"]) }
        let message = CassetteError.invalidRecordMode(value: "sometimes", source: "TAPEDECK_RECORD_MODE").errorDescription
        #expect(message == "record mode 'sometimes' from TAPEDECK_RECORD_MODE is not valid; use one of: once, new, all, none")
    }

    /// A live transport that shows `ResponseObserver.current` a stream's head and two chunks,
    /// then fails as a connection cut mid-stream does.
    struct BreakingStream: HTTPTransport {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let head = HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"], url: request.url)
            if let observer = ResponseObserver.current, observer.head(head) {
                _ = observer.chunk(BodyChunk(offset: 0, data: Data("data: 1\n\n".utf8)))
                _ = observer.chunk(BodyChunk(offset: 0.1, data: Data("data: 2\n\n".utf8)))
            }
            throw HTTPError.noResponse(url: request.url.absoluteString, detail: "the upstream closed the connection mid-answer")
        }
    }

    @Test("a stream that breaks off after its head is not kept as a whole answer: dropped, or the failure with record-failures",
          arguments: [false, true])
    func brokenStream(recordFailures: Bool) async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("broken.cassette.json")
        var configuration = CassetteConfiguration(url, mode: .all, environment: [:])
        configuration.recordFailures = recordFailures
        let recorder = try RecordingTransport(configuration: configuration, inner: BreakingStream())
        let relay = ResponseObserver(head: { _ in true }, chunk: { _ in true })
        await #expect(throws: HTTPError.self) {
            try await ResponseObserver.$current.withValue(relay) { try await recorder.send(self.get("/events")) }
        }
        // The head and chunks were journaled as they came (kill -9 keeps them); the break takes them back.
        #expect(FileManager.default.fileExists(atPath: CassetteJournal.url(for: url).path))
        try recorder.flush()
        guard recordFailures else {
            // Nothing is left to keep, so no cassette is made (an empty one would answer 404 to every replay).
            #expect(!FileManager.default.fileExists(atPath: url.path) && !FileManager.default.fileExists(atPath: CassetteJournal.url(for: url).path))
            #expect(recorder.counts.total == 0)
            return
        }
        let saved = try Cassette.load(from: url)
        #expect(saved.interactions.count == 1 && saved.interactions.first?.failure != nil && saved.interactions.first?.response.chunks == nil,
                "\(saved.interactions)")
        #expect(recorder.counts.total == saved.interactions.count)
    }

    @Test("200 concurrent requests through one session give 200 interactions on disk")
    func concurrent() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("busy.cassette.json")
        let server = CountingServer()
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: server.transport)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask { _ = try await recorder.send(self.get("/item/\(index)")) }
            }
            try await group.waitForAll()
        }
        try recorder.flush()
        let saved = try Cassette.load(from: url)
        #expect(saved.interactions.count == 200)
        #expect(Set(saved.interactions.map(\.request.url.path)).count == 200)
    }

    @Test("a bearer token, cookie and api_key sent while recording never reach the file, and replay still matches")
    func redactsWhileRecording() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("secret.cassette.json")
        let echo = StubTransport { request in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                         body: Data(#"{"auth": "\#(request.headers["Authorization"] ?? "")", "url": "\#(request.url.absoluteString)"}"#.utf8))
        }
        var request = HTTPRequest(url: URL(string: "http://api.test/me?api_key=k3y-v4lue-123")!,
                                  headers: ["Authorization": "Bearer abcdefgh12345678", "Cookie": "sid=c00kie-value"])
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .once, environment: [:]), inner: echo)
        _ = try await recorder.send(request)
        let journal = try String(contentsOf: CassetteJournal.url(for: url), encoding: .utf8)
        for secret in ["abcdefgh12345678", "c00kie-value", "k3y-v4lue-123"] { #expect(!journal.contains(secret), "\(secret) leaked") }
        try recorder.flush()
        let file = try String(contentsOf: url, encoding: .utf8)
        for secret in ["abcdefgh12345678", "c00kie-value", "k3y-v4lue-123"] { #expect(!file.contains(secret), "\(secret) leaked") }
        let replay = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .replayOnly, environment: [:]), inner: echo)
        request.headers["Authorization"] = "Bearer abcdefgh12345678"
        #expect(try await replay.send(request).status == 200)
    }

    @Test("the lint refuses to record an unredacted token in a response body")
    func lintWhileRecording() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("lint.cassette.json")
        // `access_token` members are redacted by default; a bearer token under another name is not.
        let leaky = StubTransport { _ in
            HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                         body: Data(#"{"grant": "Bearer live-secret-value"}"#.utf8))
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: leaky)
        do {
            _ = try await recorder.send(get("/token"))
            Issue.record("recorded a token")
        } catch {
            #expect(error.localizedDescription.contains("interaction 0, response body /grant: bearer token"), "\(error.localizedDescription)")
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(!FileManager.default.fileExists(atPath: CassetteJournal.url(for: url).path))
        let redacting = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, redactor: Redactor(jsonPaths: ["/grant"]), environment: [:]),
                                               inner: leaky)
        _ = try await redacting.send(get("/token"))
        try redacting.flush()
        #expect(try String(contentsOf: url, encoding: .utf8).contains(#""grant": "<REDACTED>""#))
    }

    @Test("decoded gzip bodies lose Content-Encoding and get a true Content-Length; no Trailer is announced for trailers not kept; repeated Set-Cookie stays separate")
    func normalizesResponses() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("gzip.cassette.json")
        let gzipped = StubTransport { _ in
            var headers: HTTPHeaders = ["Content-Type": "text/plain", "Content-Encoding": "gzip", "Content-Length": "31", "Trailer": "Server-Timing"]
            try headers.add(name: "Set-Cookie", value: "a=1")
            try headers.add(name: "Set-Cookie", value: "b=2")
            return HTTPResponse(status: 200, headers: headers, body: Data("decoded text".utf8))
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, redactor: .disabled, environment: [:]), inner: gzipped)
        _ = try await recorder.send(get("/gzip"))
        let stored = try #require(try Cassette.load(from: url).interactions.first?.response)
        #expect(stored.headers["Content-Encoding"] == nil)
        #expect(stored.headers["Content-Length"] == "12")
        #expect(stored.headers["Trailer"] == nil)
        #expect(stored.headers.values(for: "Set-Cookie") == ["a=1", "b=2"])
    }

    @Test("records a redirect chain hop by hop and follows it on replay")
    func redirectsHopByHop() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("redirect.cassette.json")
        let server = StubTransport { request in
            switch request.url.path {
            case "/start": HTTPResponse(status: 302, headers: ["Location": "/middle"])
            case "/middle": HTTPResponse(status: 301, headers: ["Location": "http://api.test/end"])
            default: HTTPResponse(status: 200, body: Data("end".utf8))
            }
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, followRedirects: true, environment: [:]),
                                              inner: server)
        #expect(text(try await recorder.send(get("/start"))) == "end")
        #expect(try Cassette.load(from: url).interactions.map(\.response.status) == [302, 301, 200])
        let replay = try CassetteSession(.replaying(url, followRedirects: true))
        let response = try await replay.transport.send(get("/start"))
        #expect(text(response) == "end")
        #expect(replay.status.counts.played == 3)
    }
}
