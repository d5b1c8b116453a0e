import Foundation
import Synchronization

/// Serves responses from a cassette: no network.
///
/// Identical requests are served in recorded order; with ``CassetteConfiguration/allowRepeats``
/// the last one is served again once all are used. A request with no match throws
/// ``CassetteError/noMatch(_:)`` carrying a ``MismatchReport``. Recorded redirect chains
/// are followed hop by hop when ``CassetteConfiguration/followRedirects`` is on. Thread-safe.
/// ``CassetteConfiguration/open(live:)`` in mode `none` makes one with the environment applied.
///
/// ```swift
/// let replay = try ReplayTransport(contentsOf: URL(fileURLWithPath: "Sessions/tour.cassette.json"))
/// let response = try await replay.send(HTTPRequest(url: URL(string: "http://httpbin.local/get")!))
/// print(replay.unusedInteractions)   // indexes never served
/// ```
public final class ReplayTransport: HTTPTransport, Sendable {
    /// The cassette being served (at ``CassetteConfiguration/origin`` when one is set).
    public let cassette: Cassette
    /// The origin the file was recorded at and the one it is served at, when serving rewrote
    /// it; only the served copy is kept, which halves the memory of a large cassette served
    /// at another origin.
    package let originRewrite: (recorded: URL, served: URL)?
    /// The cassette's path, for reports.
    public let path: String
    /// How the cassette was opened (matching, repeats, redirects, origin, redaction, wording).
    public let configuration: CassetteConfiguration
    /// The record mode of the session this replay belongs to, for reports.
    let mode: RecordMode?
    private let index: ReplayIndex
    private let uses: Mutex<[Int]>
    /// Who recorded each interaction (``Interaction/recordedBy``); nil when nobody is named.
    private let owners: [String?]?
    /// The names in ``owners``.
    private let ownerNames: Set<String>
    /// Secrets incoming requests carried, so a later request with one in its path still matches.
    private let secrets = SecretMemory()
    /// Every value the cassette holds in a credential field, learned on the first mismatch
    /// report: a report shows none of them in any recorded request (a token one interaction
    /// sends in a header, another in its path).
    private let cassetteSecrets = Mutex<SecretScrubber?>(nil)
    /// The redactor's credential header names (lower-case), at the index of their length in
    /// bytes, so a hit checks its headers without allocating or hashing.
    private let credentialHeadersByLength: [[String]]

    /// Creates a replay session over an in-memory cassette, matched, repeated and redirected as
    /// `configuration` says (its URL and mode are not used).
    public convenience init(cassette: Cassette, path: String = "<memory>", configuration: CassetteConfiguration = .inMemory) {
        self.init(cassette: cassette, path: path, configuration: configuration, mode: nil)
    }

    convenience init(cassette: Cassette, path: String, configuration: CassetteConfiguration, mode: RecordMode?) {
        var served = cassette
        let rewrite = Self.serve(&served, at: configuration.origin)
        self.init(serving: served, rewritten: rewrite, path: path, configuration: configuration, mode: mode)
    }

    /// Rewrites `cassette` in place to be served at `origin`; the origins, or nil when nothing changed.
    static func serve(_ cassette: inout Cassette, at origin: URL?) -> (recorded: URL, served: URL)? {
        guard let origin, let recorded = cassette.recordedOrigin, !Cassette.originReplacements(from: recorded, to: origin).isEmpty else {
            return nil
        }
        cassette.rewriteOrigin(from: recorded, to: origin)
        return (recorded, origin)
    }

    /// Serves `cassette` as it is, already rewritten by ``serve(_:at:)`` when `rewritten` says so.
    init(serving cassette: Cassette, rewritten rewrite: (recorded: URL, served: URL)?, path: String,
         configuration: CassetteConfiguration, mode: RecordMode?) {
        self.cassette = cassette
        originRewrite = rewrite
        self.path = path
        self.configuration = configuration
        self.mode = mode
        index = ReplayIndex(cassette.interactions, matcher: configuration.matcher)
        uses = Mutex(Array(repeating: 0, count: cassette.interactions.count))
        let owners = cassette.interactions.map(\.recordedBy)
        self.owners = owners.contains { $0 != nil } ? owners : nil
        ownerNames = Set(owners.compactMap { $0 })
        let credentialHeaders = configuration.redactor.headers.sorted()
        var byLength = [[String]](repeating: [], count: (credentialHeaders.map(\.utf8.count).max() ?? 0) + 1)
        for name in credentialHeaders { byLength[name.utf8.count].append(name) }
        credentialHeadersByLength = byLength
    }

    /// Reads the cassette file at `url` (any format Tapedeck reads) and serves it, as
    /// `configuration` says. ``CassetteConfiguration/open(live:)`` in mode `none` does the same
    /// with the environment applied.
    public convenience init(contentsOf url: URL, configuration: CassetteConfiguration? = nil) throws(CassetteError) {
        let configuration = configuration ?? .replaying(url, environment: [:])
        self.init(cassette: try Cassette.load(from: url, limits: configuration.limits), path: url.path,
                  configuration: configuration, mode: nil)
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try answer(request)
    }

    /// What ``send(_:)`` gives, without waiting: a recorded failure is thrown as the
    /// ``HTTPError`` it was, a miss as ``CassetteError/noMatch(_:)``.
    package func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        try answerFound(request).response
    }

    /// ``answer(_:)`` with the place of the interaction that gave it in ``cassette`` (nil when
    /// followed redirects made it of several), and whether it is steady: every later request
    /// the same as this one would get the same interaction again, so a caller may give it
    /// again without asking, and then counts each play with ``playedAgain(at:)``.
    ///
    /// It is steady when the request was found by its key alone, carried no credential to
    /// learn, and got the last of its key's interactions (so every one before it was played) on
    /// a cassette that repeats, has no placeholder patterns and names nobody who recorded it:
    /// nothing a later request does changes that choice.
    package func answerFound(_ request: HTTPRequest) throws -> (response: HTTPResponse, position: Int?, steady: Bool) {
        do {
            guard configuration.followRedirects else {
                let found = try locate(request).get()
                return (found.response, found.position, found.steady)
            }
            return (try serve(request), nil, false)
        } catch CassetteError.recordedFailure(let error) {
            throw error
        }
    }

    /// Counts one more play of the interaction at `position`, given again without asking
    /// (``answerFound(_:)`` said it was steady).
    package func playedAgain(at position: Int) {
        uses.withLock { $0[position] += 1 }
    }

    /// Serves synchronously (URLProtocol clients use this); throws ``CassetteError/noMatch(_:)``,
    /// or an ``HTTPError`` when a followed redirect leads to another scheme or loops.
    public func serve(_ request: HTTPRequest) throws -> HTTPResponse {
        guard configuration.followRedirects else { return try lookup(request).get() }
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
        locate(request).map(\.response)
    }

    /// ``lookup(_:)`` with the place in ``cassette`` of the interaction chosen.
    private func locate(_ request: HTTPRequest) -> Result<(response: HTTPResponse, position: Int, steady: Bool), CassetteError> {
        var chosen: Int?
        var steady = false
        if configuration.matcher.matchesOnKeyAlone, let first = index.first(configuration.matcher.key(for: request)) {
            var found: [String] = []
            for field in request.headers {
                let length = field.name.utf8.count
                guard length < credentialHeadersByLength.count,
                      let name = credentialHeadersByLength[length].first(where: field.name.caseInsensitiveEquals) else { continue }
                _ = Redactor.redactHeaderValue(field.value, name: name, collecting: &found)
            }
            if !found.isEmpty { secrets.learn(found) }
            let scope = owners == nil ? nil : CassetteScope.name
            chosen = uses.withLock { uses in
                var position: Int? = first
                var last = first
                while let current = position {
                    if uses[current] == 0, isAvailable(current, to: scope) {
                        uses[current] = 1
                        return current
                    }
                    last = current
                    position = index.next(after: current)
                }
                // Repeating the last exact match here is what the slow path would choose, unless
                // a placeholder pattern could still be unplayed: then it decides.
                guard configuration.allowRepeats, !index.hasPatterns else { return nil }
                uses[last] += 1
                return last
            }
            if let chosen, found.isEmpty, owners == nil, configuration.allowRepeats, !index.hasPatterns, index.next(after: chosen) == nil {
                steady = true
            }
        }
        // A miss, or an exact key whose interactions are all played: the recorded requests this
        // one matches once redacted come first, then those whose placeholders stand where it
        // has values, then (with repeats) the last of them again.
        if chosen == nil { chosen = choose(for: request) }
        guard let chosen else { return .failure(.noMatch(report(for: request))) }
        if let failure = cassette.interactions[chosen].failure {
            return .failure(.recordedFailure(failure.error(for: request, duration: cassette.interactions[chosen].response.duration)))
        }
        var response = cassette.interactions[chosen].response
        if response.storedURL == nil { response.storedURL = request.storedURL }
        return .success((response, chosen, steady))
    }

    /// The recorded interactions with `request`'s key once it is redacted as recorded ones
    /// are, that also agree on what the matcher refines with, in recorded order.
    private func exactCandidates(for compared: HTTPRequest) -> [Int] {
        let matcher = configuration.matcher
        return index.positions(matcher.key(for: compared)).filter {
            matcher.refines(recorded: cassette.interactions[$0].request, incoming: compared)
        }
    }

    /// The recorded interactions whose placeholders stand where `compared` has values, in
    /// recorded order (only those of its method, origin and path shape are compared).
    private func patternCandidates(for compared: HTTPRequest, excluding exact: [Int]) -> [Int] {
        guard index.hasPatterns else { return [] }
        let matcher = configuration.matcher
        return index.patterns(method: compared.method, url: NormalizedURL(compared.storedURL)).filter { position in
            let recorded = cassette.interactions[position].request
            return !exact.contains(position) && matcher.urlMatches(pattern: recorded, compared)
                && matcher.refines(recorded: recorded, incoming: compared)
        }
    }

    /// Marks and returns the interaction that answers `request` on the slow path: the first
    /// unplayed exact match, else the first unplayed pattern, else (with repeats) the last
    /// exact match or pattern again.
    private func choose(for request: HTTPRequest) -> Int? {
        let compared = secrets.redact(request, with: configuration.redactor)
        let exact = exactCandidates(for: compared)
        let scope = owners == nil ? nil : CassetteScope.name
        let unplayed = { (candidates: [Int]) -> Int? in
            self.uses.withLock { uses in
                guard let pick = candidates.first(where: { uses[$0] == 0 && self.isAvailable($0, to: scope) }) else { return nil }
                uses[pick] = 1
                return pick
            }
        }
        if let pick = unplayed(exact) { return pick }
        let patterns = patternCandidates(for: compared, excluding: exact)
        if let pick = unplayed(patterns) { return pick }
        guard configuration.allowRepeats, let last = exact.last ?? patterns.last else { return nil }
        uses.withLock { $0[last] += 1 }
        return last
    }

    /// Whether the interaction at `position` may answer the script or test `scope`: a scope
    /// that recorded interactions here gets its own and untagged ones, never another's
    /// (``CassetteScope``); outside any scope, or for a scope the cassette does not name
    /// (a renamed script, the prompt), all.
    private func isAvailable(_ position: Int, to scope: String?) -> Bool {
        guard let scope, ownerNames.contains(scope), let owner = owners?[position] ?? nil else { return true }
        return owner == scope
    }

    /// What scrubs every value the cassette holds in a credential field from a recorded request
    /// a report shows, made on first use.
    private func cassetteScrubber() -> SecretScrubber {
        cassetteSecrets.withLock { known in
            if let known { return known }
            let learned = SecretScrubber(configuration.redactor.secrets(in: cassette))
            known = learned
            return learned
        }
    }

    /// The mismatch report for `request` as things stand.
    public func report(for request: HTTPRequest) -> MismatchReport {
        MismatchReport.make(request: secrets.redact(request, with: configuration.redactor), interactions: cassette.interactions, known: cassetteScrubber(),
                            uses: uses.withLock { $0 }, exact: reportedCandidates(for: request), path: path, matcher: configuration.matcher,
                            redactor: configuration.redactor, mode: mode, context: configuration.wording)
    }

    /// Every recorded interaction `request` matches (played or not), for the report's "skipped" list.
    private func reportedCandidates(for request: HTTPRequest) -> [Int] {
        let compared = secrets.redact(request, with: configuration.redactor)
        let exact = exactCandidates(for: compared)
        return (exact + patternCandidates(for: compared, excluding: exact)).sorted()
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
        // Shown as mismatch reports show recorded requests: by the session's redactor, with
        // what other interactions hold scrubbed too.
        let known = cassetteScrubber()
        let lines = unused.prefix(shown).map { index in
            "  #\(index) \(MismatchReport.summary(configuration.redactor.redact(cassette.interactions[index].request, known: known).request))"
        }
        let listing = configuration.wording.lines(for: .listInteractions(path: DisplayPath.relative(path))).joined(separator: "; ")
        let more = unused.count > shown ? ["  … and \(unused.count - shown) more (\(listing))"] : []
        return (["\(unused.count) of \(cassette.interactions.count) interactions in \(DisplayPath.relative(path)) were never played:"] + lines + more)
            .joined(separator: "\n")
    }
}
