import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where test cassettes live: `__Cassettes__/NAME.cassette.json` next to the test file, as
/// swift-snapshot-testing keeps `__Snapshots__`.
public enum Cassettes {
    /// `<directory of file>/__Cassettes__/<name>.cassette.json`; a `name` ending in `.json`,
    /// `.yaml`, `.yml` or `.har`, or containing `/`, is used as given relative to that directory.
    public static func url(_ name: String, file: StaticString = #filePath) -> URL {
        let directory = URL(fileURLWithPath: "\(file)").deletingLastPathComponent()
        if name.hasPrefix("/") { return URL(fileURLWithPath: name) }
        if CassetteFormat(for: URL(fileURLWithPath: name)) != nil || name.contains("/") {
            return directory.appendingPathComponent(name)
        }
        return directory.appendingPathComponent("__Cassettes__").appendingPathComponent(name + ".cassette.json")
    }
}

/// Runs `body` with a `URLSession` bound to the cassette `name`, then saves what was recorded.
///
/// The mode is `TAPEDECK_RECORD_MODE` if set, else `mode`, else `none` on CI (`CI=true`) and
/// `once` locally: the first run records (against the real server), later runs replay. An
/// unmatched request fails inside `body` with the mismatch report; with `requireAllPlayed`
/// interactions that were never requested fail the call too. Sessions are isolated, so
/// parallel tests may use different cassettes.
///
/// ```swift
/// @Test func readsSlideshow() async throws {
///     try await withCassette("httpbin-slideshow") { session in
///         let slideshow = try await HTTPBinClient(session: session).slideshow()
///         #expect(slideshow.title == "Sample Slide Show")
///     }
/// }
///
/// // XCTest
/// func testReadsSlideshow() async throws {
///     try await withCassette("httpbin-slideshow") { session in
///         XCTAssertEqual(try await HTTPBinClient(session: session).slideshow().title, "Sample Slide Show")
///     }
/// }
/// ```
public func withCassette<T>(
    _ name: String,
    mode: RecordMode? = nil,
    matcher: Matcher = Matcher(),
    allowRepeats: Bool = false,
    requireAllPlayed: Bool = false,
    file: StaticString = #filePath,
    _ body: (URLSession) async throws -> T
) async throws -> T {
    let url = Cassettes.url(name, file: file)
    let replay = ReplayTransport.Options(matcher: matcher, allowRepeats: allowRepeats)
    let recorder = try RecordingTransport(cassette: url, mode: try RecordMode.resolve(mode),
                                          inner: URLSessionTransport(options: .init(followRedirects: false)),
                                          options: .init(replay: replay))
    let session = URLSession.recording(recorder)
    // The route goes away; the session is not invalidated, because using an invalidated
    // session is a fatalError in corelibs and a stray request must fail, not crash.
    defer { TapedeckRoutes.remove(session) }
    let result = try await body(session)
    try recorder.flush()
    try recorder.writeUsage()
    if requireAllPlayed, recorder.counts.unused > 0 {
        throw TapedeckTestingError.unusedInteractions(report: recorder.unusedReport())
    }
    return result
}
