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
        /// Words the fixes errors print for where they are read (Swift options unless a front-end passes its own).
        public var context: any FixWording
        /// Serve the cassette as if it had been recorded at this origin (`http://127.0.0.1:8080`):
        /// request URLs, `Location` and `Host` headers and text bodies are rewritten from
        /// ``Cassette/recordedOrigin``. Recording sessions store new interactions back at the
        /// recorded origin, so the file keeps one.
        public var origin: URL?

        /// Creates options; the defaults match on method + URL, follow redirects and word fixes as Swift options.
        public init(matcher: Matcher = Matcher(), allowRepeats: Bool = false, followRedirects: Bool = true,
                    redactor: Redactor = .standard, context: any FixWording = LibraryFixWording(), origin: URL? = nil) {
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
    private let index: ReplayIndex
    private let uses: Mutex<[Int]>
    /// Secrets incoming requests carried, so a later request with one in its path still matches.
    private let secrets = SecretMemory()
    /// The redactor's credential header names (lower-case) and their lengths, so a hit checks
    /// its headers without allocating.
    private let credentialHeaders: [String]
    private let credentialLengths: Set<Int>

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
        index = ReplayIndex(cassette.interactions, matcher: options.matcher)
        uses = Mutex(Array(repeating: 0, count: cassette.interactions.count))
        credentialHeaders = options.redactor.headers.sorted()
        credentialLengths = Set(credentialHeaders.map(\.utf8.count))
    }

    /// Loads a native cassette file and serves it.
    public convenience init(contentsOf url: URL, options: Options = Options()) throws(CassetteError) {
        self.init(cassette: try Cassette.load(from: url), path: url.path, options: options)
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try serve(request)
        } catch CassetteError.recordedFailure(let error) {
            throw error
        }
    }

    /// Serves synchronously (URLProtocol clients use this); throws ``CassetteError/noMatch(_:)``,
    /// or an ``HTTPError`` when a followed redirect leads to another scheme or loops.
    public func serve(_ request: HTTPRequest) throws -> HTTPResponse {
        guard options.followRedirects else {
            if case .success(let response) = lookup(request) { return response }
            throw CassetteError.noMatch(report(for: request))
        }
        return try RedirectFollower.follow(request) { (hop: HTTPRequest) throws -> HTTPResponse in
            try lookup(hop).get()
        }
    }

    /// The next recorded response for `request`, marking it played; the failure carries the report.
    ///
    /// When the matcher compares method and URL only (the default), a request whose key is in
    /// the index as sent is served without being redacted first: recorded requests are stored
    /// redacted and redaction is idempotent, so a request that already has a recorded
    /// request's key redacts to that same key. Only a miss (say, a real `api_key` where the
    /// cassette holds the placeholder) pays for redaction; that keeps a hit near a microsecond.
    /// A hit that carries a credential header (`Authorization`, `Cookie`…) teaches its value
    /// (that header alone is read): a later request with that token in its path must still match.
    public func lookup(_ request: HTTPRequest) -> Result<HTTPResponse, CassetteError> {
        let chosen: Int?
        if options.matcher.matchesOnKeyAlone, let first = index.first(options.matcher.key(for: request)) {
            var found: [String] = []
            for field in request.headers where credentialLengths.contains(field.name.utf8.count) {
                guard let name = credentialHeaders.first(where: field.name.caseInsensitiveEquals) else { continue }
                _ = Redactor.redactHeaderValue(field.value, name: name, collecting: &found)
            }
            if !found.isEmpty { secrets.learn(found) }
            chosen = uses.withLock { uses in
                var position: Int? = first
                var last = first
                while let current = position {
                    if uses[current] == 0 {
                        uses[current] = 1
                        return current
                    }
                    last = current
                    position = index.next(after: current)
                }
                guard options.allowRepeats else { return nil }
                uses[last] += 1
                return last
            }
        } else {
            chosen = choose(among: exactMatches(for: request))
        }
        guard let chosen else { return .failure(.noMatch(report(for: request))) }
        if let failure = cassette.interactions[chosen].failure {
            return .failure(.recordedFailure(failure.error(for: request, duration: cassette.interactions[chosen].response.duration)))
        }
        var response = cassette.interactions[chosen].response
        if response.url == nil { response.url = request.url }
        return .success(response)
    }

    /// The recorded interactions `request` matches, redacted as recorded ones are, in order.
    private func exactMatches(for request: HTTPRequest) -> [Int] {
        let compared = secrets.redact(request, with: options.redactor)
        return index.positions(options.matcher.key(for: compared)).filter {
            options.matcher.refines(recorded: cassette.interactions[$0].request, incoming: compared)
        }
    }

    /// Marks and returns the first unplayed of `candidates`, or the last one again when repeats are allowed.
    private func choose(among candidates: [Int]) -> Int? {
        uses.withLock { uses in
            let pick = candidates.first { uses[$0] == 0 } ?? (options.allowRepeats ? candidates.last : nil)
            if let pick { uses[pick] += 1 }
            return pick
        }
    }

    /// The mismatch report for `request` as things stand.
    public func report(for request: HTTPRequest) -> MismatchReport {
        MismatchReport.make(request: secrets.redact(request, with: options.redactor), interactions: cassette.interactions,
                            uses: uses.withLock { $0 }, exact: exactMatches(for: request), path: path, matcher: options.matcher,
                            mode: mode, context: options.context)
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
    /// interactions, then "… and N more" with where to list them (``CassetteFix/listInteractions(path:)``); "" when all were played.
    public func unusedReport() -> String {
        let unused = unusedInteractions
        guard !unused.isEmpty else { return "" }
        let shown = 5
        let lines = unused.prefix(shown).map { "  #\($0) \(MismatchReport.summary(cassette.interactions[$0].request))" }
        let listing = options.context.lines(for: .listInteractions(path: DisplayPath.relative(path))).joined(separator: "; ")
        let more = unused.count > shown ? ["  … and \(unused.count - shown) more (\(listing))"] : []
        return (["\(unused.count) of \(cassette.interactions.count) interactions in \(DisplayPath.relative(path)) were never played:"] + lines + more)
            .joined(separator: "\n")
    }
}
