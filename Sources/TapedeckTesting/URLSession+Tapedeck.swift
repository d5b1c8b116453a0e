import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSession {
    /// A session that answers every request from a cassette file: no network, no hand-written mocks.
    ///
    /// An unmatched request fails the `URLSession` call with ``Tapedeck/CassetteError/noMatch(_:)``:
    /// its `localizedDescription` and `description` are the whole mismatch report, so the
    /// failing test prints the nearest recorded interactions and the fix.
    ///
    /// ```swift
    /// // XCTest
    /// final class HTTPBinClientTests: XCTestCase {
    ///     func testReadsSlideshow() async throws {
    ///         let session = try URLSession.replaying(Cassettes.url("httpbin"))
    ///         let slideshow = try await HTTPBinClient(session: session).slideshow()
    ///         XCTAssertEqual(slideshow.title, "Sample Slide Show")
    ///     }
    /// }
    ///
    /// // Swift Testing
    /// @Test func readsSlideshow() async throws {
    ///     let session = try URLSession.replaying(Cassettes.url("httpbin"), matcher: Matcher(ignoredQueryItems: ["ts"]))
    ///     #expect(try await HTTPBinClient(session: session).slideshow().title == "Sample Slide Show")
    /// }
    /// ```
    ///
    /// `origin` serves the cassette as if it had been recorded there (`http://127.0.0.1:8080`
    /// for a cassette recorded at `http://httpbin.local`), for a client whose base URL differs.
    public static func replaying(_ cassette: URL, allowRepeats: Bool = false, matcher: Matcher = Matcher(),
                                 followRedirects: Bool = true, origin: URL? = nil,
                                 configuration: URLSessionConfiguration = .ephemeral) throws(CassetteError) -> URLSession {
        var replay = CassetteConfiguration.replaying(cassette)
        replay.matcher = matcher
        replay.allowRepeats = allowRepeats
        replay.followRedirects = followRedirects
        replay.origin = origin
        replay.wording = CurrentTest.context
        let opened = try replay.open()
        for warning in opened.warnings { reportWarning(warning) }
        return session(for: opened, configuration: configuration)
    }

    /// A session that sends through a cassette opened from a ``Tapedeck/CassetteConfiguration``
    /// (``Tapedeck/CassetteConfiguration/open(live:)``): its replay, or its recorder.
    ///
    /// ```swift
    /// var cassette = CassetteConfiguration(Cassettes.url("users"), mode: .new, followRedirects: true)
    /// cassette.redactor.jsonPaths.append("/session/token")
    /// let opened = try cassette.open(live: URLSessionTransport(options: .init(followRedirects: false)))
    /// let session = URLSession.session(for: opened)
    /// ```
    public static func session(for cassette: OpenCassette, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        if let replay = cassette.replay, cassette.configuration.conditions == nil {
            return TapedeckRoutes.session(configuration, routingTo: .replay(replay))
        }
        return TapedeckRoutes.session(configuration, routingTo: .transport(cassette.transport))
    }

    /// A session that answers from an in-memory replay transport (counts and unused report stay readable on it).
    public static func replaying(_ replay: ReplayTransport, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        TapedeckRoutes.session(configuration, routingTo: .replay(replay))
    }

    /// A replaying session with latency and faults played over it (``Tapedeck/NetworkConditions``):
    /// `reset` and `truncate` fail the call with `URLError(.networkConnectionLost)`, `timeout` with
    /// `URLError(.timedOut)`, `status:503` answers 503.
    ///
    /// ```swift
    /// let flaky = NetworkConditions(latency: .recorded, faults: [try FaultRule(parsing: "GET /users=reset@20%")], seed: 1)
    /// let replay = try ReplayTransport(contentsOf: Cassettes.url("users"),
    ///                                  configuration: .replaying(Cassettes.url("users"), followRedirects: true))
    /// let session = URLSession.replaying(replay, conditions: flaky)
    /// // or: set CassetteConfiguration.conditions and use URLSession.session(for: try configuration.open())
    /// ```
    public static func replaying(_ replay: ReplayTransport, conditions: NetworkConditions,
                                 configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        let conditioned = ConditionedTransport(inner: replay, conditions: conditions)
        return TapedeckRoutes.session(configuration, routingTo: .transport(conditioned))
    }

    /// A session that records into `cassette` in `mode` (nil: `TAPEDECK_RECORD_MODE`, else
    /// `none` on CI, else `once`, which records only when the file is missing). `configure`
    /// changes anything else about how the cassette is opened (redaction, lint, matching).
    ///
    /// Each recorded interaction is redacted, linted and appended to the cassette's journal at
    /// once; the journal is merged into the cassette (atomically) when the process exits, or
    /// the next time the cassette is opened if it was killed. Requests go out through an inner
    /// `URLSession` started from a background queue. Redirects are followed, as URLSession does.
    ///
    /// ```swift
    /// let session = try URLSession.recording(to: Cassettes.url("httpbin"))
    /// _ = try await session.data(from: URL(string: "http://127.0.0.1:8080/get")!)
    /// let strict = try URLSession.recording(to: Cassettes.url("login"), mode: .all) { $0.redactor.jsonPaths.append("/otp") }
    /// ```
    public static func recording(to cassette: URL, mode: RecordMode? = nil,
                                 configuration: URLSessionConfiguration = .ephemeral,
                                 configure: (inout CassetteConfiguration) -> Void = { _ in }) throws(CassetteError) -> URLSession {
        var recording = CassetteConfiguration(cassette, mode: mode, followRedirects: true, wording: CurrentTest.context)
        configure(&recording)
        let opened = try recording.open(live: URLSessionTransport(options: .init(followRedirects: false)))
        for warning in opened.warnings { reportWarning(warning) }
        return session(for: opened, configuration: configuration)
    }

    /// A session that sends through an existing recorder (``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)`` uses it).
    public static func recording(_ recorder: RecordingTransport, configuration: URLSessionConfiguration = .ephemeral) -> URLSession {
        TapedeckRoutes.session(configuration, routingTo: .transport(recorder))
    }

    /// A session whose every request is answered by `handler`, MockURLProtocol-style.
    ///
    /// ```swift
    /// let session = URLSession.stubbing { request in
    ///     request.url?.path == "/uuid" ? .json(#"{"uuid": "0000"}"#) : .status(404)
    /// }
    /// ```
    public static func stubbing(configuration: URLSessionConfiguration = .ephemeral,
                                _ handler: @escaping @Sendable (URLRequest) throws -> SampleResponse) -> URLSession {
        let transport = StubTransport { request in
            let sample: SampleResponse
            do {
                sample = try handler(URLRequestConversion.urlRequest(from: request))
            } catch {
                throw TapedeckTestingError.stubFailed(url: request.urlText, detail: error.localizedDescription)
            }
            if let failure = sample.failure { throw URLError(failure) }
            return sample.response(for: request.url)
        }
        return TapedeckRoutes.session(configuration, routingTo: .transport(transport))
    }
}
