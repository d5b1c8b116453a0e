import Foundation
import Synchronization

/// Serves responses from a cassette: no network.
///
/// Identical requests are served in recorded order; with `allowRepeats` the last one is
/// served again once all are used. A request with no match throws
/// ``CassetteError/noMatch(_:)`` carrying a ``MismatchReport``. Recorded redirect chains
/// are followed hop by hop when `followRedirects` is on. Thread-safe.
///
/// ```swift
/// let replay = try ReplayTransport(contentsOf: URL(fileURLWithPath: "Sessions/tour.cassette.json"))
/// let response = try await replay.send(HTTPRequest(url: URL(string: "http://httpbin.local/get")!))
/// print(replay.unusedInteractions)   // indexes never served
/// ```
public final class ReplayTransport: HTTPTransport, Sendable {
    /// How requests are matched and served.
    public struct Options: Sendable {
        /// What makes a recorded request match.
        public var matcher: Matcher
        /// Whether the last match is served again once every identical interaction was played.
        public var allowRepeats: Bool
        /// Whether recorded 3xx responses with a `Location` are followed to the final response.
        public var followRedirects: Bool
        /// Applied to incoming requests before matching, so real credentials match placeholders.
        public var redactor: Redactor
        /// Where errors are read (REPL, `tapedeck run`, unit tests), which decides the fixes they print.
        public var context: FixContext
        /// Serve the cassette as if it had been recorded at this origin (`http://127.0.0.1:8080`):
        /// request URLs, `Location` and `Host` headers and text bodies are rewritten from
        /// ``Cassette/recordedOrigin``. Recording sessions store new interactions back at the
        /// recorded origin, so the file keeps one.
        public var origin: URL?

        /// Creates options; the defaults match on method + URL, follow redirects and word fixes for unit tests.
        public init(matcher: Matcher = Matcher(), allowRepeats: Bool = false, followRedirects: Bool = true,
                    redactor: Redactor = .standard, context: FixContext = .unitTests(filter: nil), origin: URL? = nil) {
            self.matcher = matcher
            self.allowRepeats = allowRepeats
            self.followRedirects = followRedirects
            self.redactor = redactor
            self.context = context
            self.origin = origin
        }
    }

    /// The cassette being served.
    public let cassette: Cassette
    /// The cassette's path, for reports.
    public let path: String
    /// The options in effect.
    public let options: Options
    /// The record mode of the session this replay belongs to, for reports.
    let mode: RecordMode?
    private let index: [String: [Int]]
    private let uses: Mutex<[Int]>

    /// Creates a replay session over an in-memory cassette.
    public convenience init(cassette: Cassette, path: String = "<memory>", options: Options = Options()) {
        self.init(cassette: cassette, path: path, options: options, mode: nil)
    }

    init(cassette: Cassette, path: String, options: Options, mode: RecordMode?) {
        let cassette = options.origin.map(cassette.rewritingOrigin(to:)) ?? cassette
        self.cassette = cassette
        self.path = path
        self.options = options
        self.mode = mode
        var index: [String: [Int]] = [:]
        index.reserveCapacity(cassette.interactions.count)
        for (position, interaction) in cassette.interactions.enumerated() {
            index[options.matcher.key(for: interaction.request), default: []].append(position)
        }
        self.index = index
        uses = Mutex(Array(repeating: 0, count: cassette.interactions.count))
    }

    /// Loads a native cassette file and serves it.
    public convenience init(contentsOf url: URL, options: Options = Options()) throws(CassetteError) {
        self.init(cassette: try Cassette.load(from: url), path: url.path, options: options)
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try serve(request)
    }

    /// Serves synchronously (URLProtocol clients use this); throws ``CassetteError/noMatch(_:)``.
    public func serve(_ request: HTTPRequest) throws(CassetteError) -> HTTPResponse {
        guard options.followRedirects else {
            if case .success(let response) = lookup(request) { return response }
            throw .noMatch(report(for: request))
        }
        return try RedirectFollower.follow(request) { (hop: HTTPRequest) throws(CassetteError) -> HTTPResponse in
            switch lookup(hop) {
            case .success(let response): return response
            case .failure(let error): throw error
            }
        }
    }

    /// The next recorded response for `request`, marking it played; the failure carries the report.
    public func lookup(_ request: HTTPRequest) -> Result<HTTPResponse, CassetteError> {
        let compared = options.redactor.redact(request)
        let candidates = (index[options.matcher.key(for: compared)] ?? []).filter {
            options.matcher.refines(recorded: cassette.interactions[$0].request, incoming: compared)
        }
        let chosen: Int? = uses.withLock { uses in
            let pick = candidates.first { uses[$0] == 0 } ?? (options.allowRepeats ? candidates.last : nil)
            if let pick { uses[pick] += 1 }
            return pick
        }
        guard let chosen else { return .failure(.noMatch(report(for: request, exact: candidates))) }
        var response = cassette.interactions[chosen].response
        if response.url == nil { response.url = request.url }
        return .success(response)
    }

    /// The mismatch report for `request` as things stand.
    public func report(for request: HTTPRequest) -> MismatchReport {
        let compared = options.redactor.redact(request)
        let exact = (index[options.matcher.key(for: compared)] ?? []).filter {
            options.matcher.refines(recorded: cassette.interactions[$0].request, incoming: compared)
        }
        return report(for: request, exact: exact)
    }

    private func report(for request: HTTPRequest, exact: [Int]) -> MismatchReport {
        MismatchReport.make(request: options.redactor.redact(request), interactions: cassette.interactions,
                            uses: uses.withLock { $0 }, exact: exact, path: path, matcher: options.matcher, mode: mode,
                            context: options.context)
    }

    /// Indexes of interactions never served, in order.
    public var unusedInteractions: [Int] {
        uses.withLock { uses in uses.indices.filter { uses[$0] == 0 } }
    }

    /// How many responses were served (repeats counted).
    public var playedCount: Int {
        uses.withLock { $0.reduce(0, +) }
    }

    /// "2 of 6 interactions were never played:" and a line for each of the first five unused
    /// interactions, then "… and N more" naming `tapedeck cassette show PATH`; "" when all were played.
    public func unusedReport() -> String {
        let unused = unusedInteractions
        guard !unused.isEmpty else { return "" }
        let shown = 5
        let lines = unused.prefix(shown).map { "  #\($0) \(MismatchReport.summary(cassette.interactions[$0].request))" }
        let more = unused.count > shown
            ? ["  … and \(unused.count - shown) more (tapedeck cassette show \(FixContext.word(FixContext.display(path))) lists them)"] : []
        return (["\(unused.count) of \(cassette.interactions.count) interactions in \(FixContext.display(path)) were never played:"] + lines + more)
            .joined(separator: "\n")
    }
}
