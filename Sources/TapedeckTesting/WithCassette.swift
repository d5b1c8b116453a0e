import Foundation
import Tapedeck
import TapedeckTooling
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Testing)
import Testing
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
/// The mode is `TAPEDECK_RECORD_MODE` if set, else `none` on CI (`CI=true`) and `once`
/// locally: the first run records (against the real server), later runs replay. To pin a mode,
/// pass `mode:` (the other overload). An unmatched request fails inside `body` with the
/// mismatch report; with `requireAllPlayed` interactions that were never requested fail the
/// call too. Sessions are isolated, so parallel tests may use different cassettes.
///
/// What the run played is kept for `tapedeck cassette prune` in a usage record (see
/// ``Tapedeck/CassetteUsage``). That record never fails a test: when it cannot be written,
/// a Swift Testing test gets a warning issue (severity `.warning`, so it still passes) saying
/// why and how to fix it (`TAPEDECK_USAGE_DIR`).
///
/// `TAPEDECK_RECORD_MODE=verify` sends every request live instead and throws
/// ``CassetteDriftError`` (status and JSON shape compared, at JSON Pointers) when the live API
/// answers differently from the cassette; the cassette is not written. `TAPEDECK_MAX_AGE=30d`
/// with `TAPEDECK_ON_EXPIRY=warn|fail|rerecord` warns, fails (``Tapedeck/CassetteError/expiry(_:)``)
/// or re-records when the cassette holds older interactions. Recorded redirects are followed, as
/// URLSession follows live ones.
///
/// `redactor` decides what is replaced before anything is written (and how incoming requests
/// are compared); the secret lint's refusal names the `Redactor` to pass when it finds more.
/// `origin` serves the cassette as if recorded there (the client's base URL) and stores what is
/// recorded at the cassette's own origin.
///
/// ```swift
/// // Swift Testing (or the `.cassette("httpbin")` trait and `URLSession.cassette`)
/// @Test func readsSlideshow() async throws {
///     try await withCassette("httpbin") { session in
///         let slideshow = try await HTTPBinClient(session: session).slideshow()
///         #expect(slideshow.title == "Sample Slide Show")
///     }
/// }
///
/// // XCTest
/// final class HTTPBinClientTests: XCTestCase {
///     func testReadsSlideshow() async throws {
///         let title = try await withCassette("httpbin") { session in
///             try await HTTPBinClient(session: session).slideshow().title
///         }
///         XCTAssertEqual(title, "Sample Slide Show")
///     }
/// }
/// ```
///
/// `mode` (still overridden by `TAPEDECK_RECORD_MODE`) fixes the record mode: `.replayOnly`
/// replays only and fails when the cassette is missing, `.all` re-records; nil takes
/// `TAPEDECK_RECORD_MODE`, else `none` on CI and `once` elsewhere.
///
/// ```swift
/// try await withCassette("httpbin", mode: .replayOnly) { session in … }
/// ```
public func withCassette<T>(
    _ name: String,
    mode: RecordMode? = nil,
    matcher: Matcher = Matcher(),
    allowRepeats: Bool = false,
    requireAllPlayed: Bool = false,
    redactor: Redactor = .standard,
    origin: URL? = nil,
    file: StaticString = #filePath,
    _ body: (URLSession) async throws -> T
) async throws -> T {
    try await runCassette(name, mode: mode, matcher: matcher, allowRepeats: allowRepeats,
                          requireAllPlayed: requireAllPlayed, redactor: redactor, origin: origin, file: file,
                          warn: reportWarning, body)
}

/// ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)`` with the environment
/// and the warning sink injected (tests use them).
func runCassette<T>(
    _ name: String,
    mode: RecordMode?,
    matcher: Matcher,
    allowRepeats: Bool,
    requireAllPlayed: Bool,
    redactor: Redactor = .standard,
    origin: URL? = nil,
    file: StaticString,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    warn: (String) -> Void,
    _ body: (URLSession) async throws -> T
) async throws -> T {
    let url = Cassettes.url(name, file: file)
    if VerifyMode.isRequested(environment) {
        return try await VerifyMode.run(cassette: url, matcher: matcher, redactor: redactor,
                                        live: URLSessionTransport(options: .init(followRedirects: false)), body)
    }
    // URLSession follows redirects itself, so the cassette does too: a test sees the final answer, as it would live.
    let configuration = CassetteConfiguration(url, mode: mode, matcher: matcher, allowRepeats: allowRepeats, followRedirects: true,
                                              redactor: redactor, origin: origin, wording: CurrentTest.context, environment: environment)
    let cassette = try configuration.open(live: URLSessionTransport(options: .init(followRedirects: false)))
    for warning in cassette.warnings { warn(warning) }
    let session = URLSession.session(for: cassette)
    // The route goes away; the session is not invalidated, because using an invalidated
    // session is a fatalError in corelibs and a stray request must fail, not crash.
    defer { TapedeckRoutes.remove(session) }
    let result = try await body(session)
    try cassette.flush()
    if let warning = cassette.writeUsage(environment: environment) { warn(warning) }
    if requireAllPlayed, cassette.counts.unused > 0 {
        throw TapedeckTestingError.unusedInteractions(report: cassette.unusedReport())
    }
    return result
}

/// Shows a warning without failing the test: a Swift Testing issue of severity `.warning`
/// inside a Swift Testing test (XCTest has no warnings, so nothing is recorded there).
func reportWarning(_ message: String) {
    #if canImport(Testing)
    if Test.current != nil {
        Issue.record(Comment(rawValue: message), severity: .warning)
    }
    #endif
}
