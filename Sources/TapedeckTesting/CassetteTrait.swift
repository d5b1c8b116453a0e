#if canImport(Testing) && compiler(>=6.1)
import Foundation
import Tapedeck
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Swift Testing trait that runs a test (or every test of a suite) inside
/// ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)``; the test reads its
/// session from ``Foundation/URLSession/cassette``.
///
/// ```swift
/// @Test(.cassette("httpbin"))
/// func readsSlideshow() async throws {
///     let slideshow = try await HTTPBinClient(session: .cassette).slideshow()
///     #expect(slideshow.title == "Sample Slide Show")
/// }
/// ```
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    /// The cassette name, resolved like ``Cassettes/url(_:file:)`` next to the file that applied the trait.
    public var name: String
    /// The pinned mode, or nil for `TAPEDECK_RECORD_MODE`, else `none` on CI, else `once`.
    public var mode: RecordMode?
    /// What makes a recorded request match.
    public var matcher: Matcher
    /// Whether the last match is served again once all identical ones were played.
    public var allowRepeats: Bool
    /// Whether interactions the test never requested fail it.
    public var requireAllPlayed: Bool
    /// What is replaced before anything is written.
    public var redactor: Redactor
    /// Serve the cassette as if recorded at this origin (see ``Tapedeck/CassetteConfiguration/origin``).
    public var origin: URL?
    /// The file whose `__Cassettes__` directory holds the cassette.
    var file: StaticString

    /// Applied to a suite, each test gets its own session on the same cassette.
    public var isRecursive: Bool { true }

    @TaskLocal static var session: URLSession?

    /// Runs the test inside the cassette session.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A suite's own scope has no test case to run; its tests get theirs (isRecursive).
        guard testCase != nil || !test.isSuite else { return try await function() }
        try await runCassette(name, mode: mode, matcher: matcher, allowRepeats: allowRepeats,
                              requireAllPlayed: requireAllPlayed, redactor: redactor, origin: origin, file: file,
                              warn: reportWarning) { session in
            try await CassetteTrait.$session.withValue(session) { try await function() }
        }
    }
}

extension Trait where Self == CassetteTrait {
    /// Runs the test with the cassette `name` (`__Cassettes__/NAME.cassette.json` next to this
    /// file) in the mode `TAPEDECK_RECORD_MODE` names, else `none` on CI, else `once`; the test
    /// sends through `URLSession.cassette`.
    public static func cassette(_ name: String, matcher: Matcher = Matcher(), allowRepeats: Bool = false,
                                requireAllPlayed: Bool = false, redactor: Redactor = .standard, origin: URL? = nil,
                                file: StaticString = #filePath) -> Self {
        CassetteTrait(name: name, mode: nil, matcher: matcher, allowRepeats: allowRepeats, requireAllPlayed: requireAllPlayed,
                      redactor: redactor, origin: origin, file: file)
    }

    /// ``cassette(_:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:)`` in `mode` (still
    /// overridden by `TAPEDECK_RECORD_MODE`): `.replayOnly` replays only, `.all` re-records.
    public static func cassette(_ name: String, mode: RecordMode, matcher: Matcher = Matcher(), allowRepeats: Bool = false,
                                requireAllPlayed: Bool = false, redactor: Redactor = .standard, origin: URL? = nil,
                                file: StaticString = #filePath) -> Self {
        CassetteTrait(name: name, mode: mode, matcher: matcher, allowRepeats: allowRepeats, requireAllPlayed: requireAllPlayed,
                      redactor: redactor, origin: origin, file: file)
    }
}

extension URLSession {
    /// The session of the enclosing `.cassette("name")` trait. Outside one, a session whose
    /// every request fails with a message saying to add the trait.
    public static var cassette: URLSession {
        CassetteTrait.session ?? TapedeckRoutes.session(.ephemeral, routingTo: .transport(
            StubTransport { request in throw TapedeckTestingError.noCassetteTrait(url: request.urlText) }))
    }
}
#endif
