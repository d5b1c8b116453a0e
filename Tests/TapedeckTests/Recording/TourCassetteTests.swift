import Foundation
import Testing
@testable import Tapedeck
@testable import TapedeckTooling

/// The demo cassette `make run` replays: recorded from the local httpbin through the real
/// binary, then rewritten to `http://httpbin.local` so it is the same on every machine.
@Suite("Tour cassette", .serialized)
struct TourCassetteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let tour = root.appendingPathComponent("Sessions/tour.cassette.json")
    static let environment = ProcessInfo.processInfo.environment
    static let portableBase = URL(string: "http://httpbin.local")!

    /// What a newcomer types first; each must replay offline.
    static let firstSteps = """
    base {{base}}
    get /get
    get /json
    get /headers
    get /status/418
    post /post name=Ada language=Swift
    get /uuid
    get /anything?page=1
    get /anything?page=2
    get /html
    get /image/png
    get /redirect/2 --follow
    get /gzip
    """

    @Test("re-records the tour from httpbin through the binary",
          .enabled(if: environment["TAPEDECK_RECORD_FIXTURES"] == "1" && environment["TAPEDECK_HTTPBIN_URL"] != nil,
                   "set TAPEDECK_RECORD_FIXTURES=1 and run under .ci/with-httpbin to re-record Sessions/tour.cassette.json"))
    func recordTour() throws {
        let live = try #require(Self.environment["TAPEDECK_HTTPBIN_URL"].flatMap(URL.init(string:)))
        let binary = Self.environment["TAPEDECK_BIN"] ?? Self.root.appendingPathComponent(".build/debug/tapedeck").path
        let directory = TemporaryDirectory()
        let script = directory.file("first-steps.tape")
        try Data(Self.firstSteps.utf8).write(to: script)
        let recording = directory.file("tour.cassette.json")
        for (tape, mode) in [(script.path, "all"), (Self.root.appendingPathComponent("Sessions/httpbin-tour.tape").path, "new")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            // Bodies are compared, so the tour's POSTs record beside the first steps' instead of replaying them.
            process.arguments = ["run", tape, "--record", recording.path, "--mode", mode, "--match", "body",
                                 "--var", "base=\(live.absoluteString)"]
            process.environment = Self.environment.filter { $0.key != "TAPEDECK_RECORD_MODE" }
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(tape) failed while recording")
        }
        var cassette = try Cassette.load(from: recording).rewritingOrigin(from: live, to: Self.portableBase)
        cassette.baseURL = Self.portableBase
        cassette.metadata[Cassette.MetadataKey.recordedWith] = "tapedeck run --record (httpbin)"
        try SecretLint.check(cassette, path: Self.tour.path)
        try cassette.write(to: Self.tour)
    }

    @Test("the committed tour cassette covers the first steps, names its base URL and holds no secrets")
    func committedTour() async throws {
        let cassette = try Cassette.load(from: Self.tour)
        #expect(cassette.baseURL == Self.portableBase)
        let keys = Set(cassette.interactions.map { "\($0.request.method) \($0.request.url.path)" })
        for key in ["GET /get", "GET /json", "GET /headers", "GET /status/418", "POST /post", "GET /uuid"] {
            #expect(keys.contains(key), "\(key) is missing from the tour")
        }
        #expect(SecretLint.findings(in: cassette).isEmpty)
        #expect(!String(decoding: cassette.encoded(), as: UTF8.self).contains("127.0.0.1:"), "no recording port is left")
        let session = try CassetteSession(.replaying(Self.tour, allowRepeats: true))
        let response = try await session.transport.send(HTTPRequest(url: URL(string: "http://httpbin.local/get")!))
        #expect(response.status == 200)
        #expect(response.text?.contains("\"url\": \"http://httpbin.local/get\"") == true)
        let teapot = try await session.transport.send(HTTPRequest(url: URL(string: "http://httpbin.local/status/418")!))
        #expect(teapot.status == 418)
    }
}
