import Foundation
import Synchronization
import Tapedeck
import TapedeckTooling

/// The cassettes a server plays and records, and the one path every request takes through
/// them: control endpoints, mount, the session's transport (the same replay, recording,
/// matching and redaction as everywhere else), network conditions, the unmatched policy.
///
/// ```swift
/// let deck = Deck(options: DeckOptions(), origin: URL(string: "http://127.0.0.1:8080")!)
/// try deck.load(path: "Sessions/tour.cassette.json")
/// let reply = await deck.respond(IncomingRequest(method: "GET", target: "/get"))
/// ```
public final class Deck: Sendable {
    /// The options in effect.
    public let options: DeckOptions
    /// The origin clients address; cassettes are served as if recorded there.
    public let origin: URL
    private let tapes: Mutex<[Tape]>
    private let recent = Mutex<[String]>([])
    private let unmatchedCount = Atomic<Int>(0)
    private let plan: FaultPlan

    /// How many mismatch summaries ``status`` keeps.
    static let keptMismatches = 20

    /// Creates an empty deck answering at `origin`.
    public init(options: DeckOptions, origin: URL) {
        self.options = options
        self.origin = options.origin ?? origin
        tapes = Mutex([])
        plan = FaultPlan(options.conditions)
    }

    // MARK: Loading

    /// Adds a cassette to replay (any format Tapedeck reads) under `mount` (`""` for all paths).
    public func load(path: String, mount: String = "") throws(CassetteError) {
        let session = try CassetteSession.replay(path: path, allowRepeats: options.allowRepeats, followRedirects: false,
                                                 matcher: options.matcher, origin: origin,
                                                 context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
        tapes.withLock { $0.append(Tape(mount: Deck.normalizedMount(mount), path: path, session: session, upstream: nil)) }
    }

    /// Adds a cassette that records what goes through to `upstream` in `mode`, under `mount`.
    public func record(path: String, mode: RecordMode, upstream: URL, mount: String = "") throws(CassetteError) {
        var replay = ReplayTransport.Options(matcher: options.matcher, allowRepeats: options.allowRepeats, followRedirects: false)
        replay.context = FixContext.server(upstream: upstream.absoluteString)
        var recording = RecordingTransport.Options(replay: replay, metadata: [Cassette.MetadataKey.baseURL: upstream.absoluteString])
        recording.recordFailures = options.recordFailures
        let session = try CassetteSession(path: path, mode: mode, live: options.live, options: recording,
                                          context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
        tapes.withLock { $0.append(Tape(mount: Deck.normalizedMount(mount), path: path, session: session, upstream: upstream)) }
    }

    /// Replaces every tape under `mount` with `paths` for replay; the old ones are finished first.
    /// Returns their summaries.
    @discardableResult
    public func switchTo(paths: [String], mount: String = "") throws(CassetteError) -> [String] {
        let mount = Deck.normalizedMount(mount)
        var sessions: [Tape] = []
        for path in paths {
            let session = try CassetteSession.replay(path: path, allowRepeats: options.allowRepeats, followRedirects: false,
                                                     matcher: options.matcher, origin: origin,
                                                     context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
            sessions.append(Tape(mount: mount, path: path, session: session, upstream: nil))
        }
        let removed = tapes.withLock { tapes in
            let old = tapes.filter { $0.mount == mount }
            tapes.removeAll { $0.mount == mount }
            tapes.append(contentsOf: sessions)
            return old
        }
        return try removed.map { (tape: Tape) throws(CassetteError) -> String in try tape.session.finish(environment: options.environment) }
    }

    /// Reopens every tape from its file: replay positions start over, recordings are written first.
    public func reset() throws(CassetteError) {
        let current = tapes.withLock { $0 }
        var reopened: [Tape] = []
        for tape in current {
            try tape.session.finish(environment: options.environment)
            var fresh = tape
            if let upstream = tape.upstream {
                let replay = ReplayTransport.Options(matcher: options.matcher, allowRepeats: options.allowRepeats, followRedirects: false)
                var recording = RecordingTransport.Options(replay: replay, metadata: [Cassette.MetadataKey.baseURL: upstream.absoluteString])
                recording.recordFailures = options.recordFailures
                fresh.session = try CassetteSession(path: tape.path, mode: tape.session.mode == .all ? .new : tape.session.mode,
                                                    live: options.live, options: recording,
                                                    context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
            } else {
                fresh.session = try CassetteSession.replay(path: tape.path, allowRepeats: options.allowRepeats, followRedirects: false,
                                                           matcher: options.matcher, origin: origin,
                                                           context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
            }
            reopened.append(fresh)
        }
        tapes.withLock { $0 = reopened }
    }

    /// Turns recording on for `mount`: its tapes are replaced by one recording into `path`.
    public func startRecording(path: String, mode: RecordMode, upstream: URL, mount: String = "") throws(CassetteError) {
        let mount = Deck.normalizedMount(mount)
        let old = tapes.withLock { tapes in
            let old = tapes.filter { $0.mount == mount }
            tapes.removeAll { $0.mount == mount }
            return old
        }
        for tape in old { try tape.session.finish(environment: options.environment) }
        try record(path: path, mode: mode, upstream: upstream, mount: mount)
    }

    /// Turns recording off: each recording tape is written and replayed from its file from now on.
    /// Returns the summaries of the recordings.
    @discardableResult
    public func stopRecording() throws(CassetteError) -> [String] {
        let recording = tapes.withLock { $0.filter(\.isRecording) }
        var summaries: [String] = []
        for tape in recording {
            summaries.append(try tape.session.finish(environment: options.environment))
            let replay = try CassetteSession.replay(path: tape.path, allowRepeats: options.allowRepeats, followRedirects: false,
                                                    matcher: options.matcher, origin: origin,
                                                    context: .server(upstream: options.upstream?.absoluteString), environment: options.environment)
            tapes.withLock { tapes in
                if let index = tapes.firstIndex(where: { $0.path == tape.path && $0.isRecording }) {
                    tapes[index] = Tape(mount: tape.mount, path: tape.path, session: replay, upstream: nil)
                }
            }
        }
        return summaries
    }

    /// Writes every recording and returns the tape summary: a status line per cassette (recorded,
    /// played, unused), the never-played interactions, and the unmatched count.
    public func finish() -> String {
        var lines: [String] = []
        for tape in tapes.withLock({ $0 }) {
            do {
                lines.append(try tape.session.finish(environment: options.environment))
            } catch {
                lines.append("error: " + (error.errorDescription ?? "\(error)"))
            }
        }
        lines.append("\(unmatchedCount.load(ordering: .relaxed)) unmatched request\(unmatchedCount.load(ordering: .relaxed) == 1 ? "" : "s")")
        return lines.joined(separator: "\n")
    }

    static func normalizedMount(_ mount: String) -> String {
        var trimmed = mount.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if !trimmed.isEmpty, !trimmed.hasPrefix("/") { trimmed = "/" + trimmed }
        return trimmed
    }

    // MARK: Answering

    /// Answers one request: control endpoints, then the tapes of the longest mount that covers it.
    public func respond(_ incoming: IncomingRequest) async -> ServerReply {
        if incoming.path.hasPrefix(ServerMarker.controlPrefix) || incoming.path + "/" == ServerMarker.controlPrefix {
            return ControlAPI(deck: self).respond(incoming)
        }
        let all = tapes.withLock { $0 }
        let longest = all.filter { $0.covers(incoming.path) }.map(\.mount).max { $0.count < $1.count }
        let chosen = all.filter { $0.mount == longest }
        guard let first = chosen.first else {
            return unmatched(incoming, report: "no cassette is loaded for \(incoming.path); load one: curl -X POST '\(origin.absoluteString)\(ServerMarker.controlPrefix)load?cassette=PATH'")
        }
        let request: HTTPRequest
        do { request = try makeRequest(incoming, for: first) } catch {
            return ServerReply.text(400, error.localizedDescription + "\n", headers: [ServerMarker.errorHeader: "400"])
        }
        let fault = plan.fault(for: request)
        var reports: [String] = []
        for tape in chosen {
            do {
                let response = try await plan.send(request, applying: Deck.inProcessPart(of: fault), through: tape.session.transport)
                let shown = tape.isRecording ? ProxyHeaders.forClient(response, for: request) : response
                return ServerReply(response: shown, fault: Deck.socketPart(of: fault))
            } catch let error as CassetteError {
                guard case .noMatch(let report) = error else { return failure(error, request: request) }
                reports.append(report.description)
            } catch let error as HTTPError where !tape.isRecording {
                return Deck.replayedFailure(error, request: request, log: options.log)
            } catch {
                return failure(error, request: request)
            }
        }
        if options.unmatched == .forward, let upstream = options.upstream {
            return await forward(incoming, to: upstream)
        }
        return unmatched(incoming, report: reports.joined(separator: "\n\n"))
    }

    /// The request a tape sees: at the serving origin for replay, at the upstream (or the
    /// absolute-form target) with proxy headers for recording.
    private func makeRequest(_ incoming: IncomingRequest, for tape: Tape) throws -> HTTPRequest {
        let method = try HTTPMethod(validating: incoming.method)
        let rest = tape.stripping(incoming.pathAndQuery)
        guard let upstream = tape.upstream else {
            guard let url = URL(string: Deck.originText(origin) + rest) else { throw HTTPError.invalidURL(input: rest, reason: "not a valid request target") }
            return HTTPRequest(method: method, url: url, headers: incoming.headers, body: incoming.body.isEmpty ? nil : incoming.body)
        }
        let forward = incoming.isAbsoluteForm
        let target = forward ? incoming.target : Deck.originText(upstream) + Deck.basePath(upstream) + rest
        guard let url = URL(string: target) else { throw HTTPError.invalidURL(input: target, reason: "not a valid request target") }
        let headers = ProxyHeaders.forUpstream(incoming.headers, url: url, client: incoming.remoteAddress, forward: forward)
        return HTTPRequest(method: method, url: url, headers: headers, body: incoming.body.isEmpty ? nil : incoming.body)
    }

    private func forward(_ incoming: IncomingRequest, to upstream: URL) async -> ServerReply {
        let target = Deck.originText(upstream) + Deck.basePath(upstream) + incoming.pathAndQuery
        guard let url = URL(string: target), let method = try? HTTPMethod(validating: incoming.method) else {
            return ServerReply.text(400, "cannot forward \(incoming.method) \(incoming.target)\n", headers: [ServerMarker.errorHeader: "400"])
        }
        let request = HTTPRequest(method: method, url: url,
                                  headers: ProxyHeaders.forUpstream(incoming.headers, url: url, client: incoming.remoteAddress, forward: false),
                                  body: incoming.body.isEmpty ? nil : incoming.body)
        do {
            return ServerReply(response: ProxyHeaders.forClient(try await options.live.send(request), for: request))
        } catch {
            return failure(error, request: request)
        }
    }

    private func unmatched(_ incoming: IncomingRequest, report: String) -> ServerReply {
        unmatchedCount.add(1, ordering: .relaxed)
        let summary = "\(incoming.method) \(incoming.target)"
        recent.withLock { recent in
            recent.append(summary)
            if recent.count > Deck.keptMismatches { recent.removeFirst(recent.count - Deck.keptMismatches) }
        }
        options.log("unmatched: " + report)
        let status: Int
        if case .status(let code) = options.unmatched { status = code } else { status = 404 }
        return ServerReply.text(status, report + "\n", headers: [ServerMarker.unmatchedHeader: "1"])
    }

    private func failure(_ error: any Error, request: HTTPRequest) -> ServerReply {
        let text = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        options.log("error: \(request.method) \(request.url.absoluteString): \(text)")
        if let http = error as? HTTPError {
            switch http {
            case .timedOut: return ServerReply.text(504, text + "\n", headers: [ServerMarker.errorHeader: "504"])
            case .cannotConnect, .hostNotFound, .noResponse, .tlsFailure, .transport:
                return ServerReply.text(502, text + "\n", headers: [ServerMarker.errorHeader: "502"])
            default: break
            }
        }
        return ServerReply.text(500, text + "\n", headers: [ServerMarker.errorHeader: "500"])
    }

    /// A transport failure recorded in a cassette, as a client of the server meets it: a
    /// refused or dropped connection is a reset, a timeout never answers, an unresolved host is 502.
    static func replayedFailure(_ error: HTTPError, request: HTTPRequest, log: @Sendable (String) -> Void) -> ServerReply {
        let text = error.errorDescription ?? "\(error)"
        log("replaying a recorded failure for \(request.method) \(request.url.absoluteString): \(text)")
        let placeholder = HTTPResponse(status: 502, headers: [ServerMarker.errorHeader: "502"], body: Data((text + "\n").utf8))
        switch error {
        case .cannotConnect, .noResponse: return ServerReply(response: placeholder, fault: .reset)
        case .timedOut: return ServerReply(response: placeholder, fault: .hang)
        default: return ServerReply(response: placeholder)
        }
    }

    /// The part of a fault the transport plays (status, and latency for everything).
    static func inProcessPart(of fault: FaultAction?) -> FaultAction? {
        if case .status? = fault { return fault }
        return nil
    }

    /// The part of a fault only the socket can play.
    static func socketPart(of fault: FaultAction?) -> SocketFault? {
        switch fault {
        case .reset?: .reset
        case .truncate?: .truncate
        case .slow(let rate)?: .slow(bytesPerSecond: rate)
        case .timeout?: .hang
        case .status?, nil: nil
        }
    }

    static func originText(_ url: URL) -> String {
        let scheme = url.scheme ?? "http", host = url.host ?? "127.0.0.1"
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// The upstream's path prefix without a trailing slash (`http://h/api/` → `/api`).
    static func basePath(_ url: URL) -> String {
        var path = url.path(percentEncoded: true)
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    // MARK: Status

    /// The counts of every tape and the last mismatches, for `GET /__tapedeck/status`.
    public var status: DeckStatus {
        let cassettes = tapes.withLock { $0 }.map { tape in
            let status = tape.session.status
            return DeckStatus.CassetteStatus(path: tape.path, mount: tape.mount.isEmpty ? "/" : tape.mount, mode: status.mode.rawValue,
                                             recording: tape.isRecording, recorded: status.counts.recorded, played: status.counts.played,
                                             unused: status.counts.unused, total: status.counts.total)
        }
        return DeckStatus(origin: origin.absoluteString, cassettes: cassettes, unmatched: unmatchedCount.load(ordering: .relaxed),
                          lastMismatches: recent.withLock { $0 })
    }
}
