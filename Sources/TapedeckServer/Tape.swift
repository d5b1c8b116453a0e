import Foundation
import Tapedeck
import TapedeckTooling

/// One cassette in a ``Deck``: where it is mounted and the session that serves or records it.
struct Tape: Sendable {
    /// The path prefix it answers under (`""` for everything not mounted elsewhere).
    var mount: String
    /// The cassette path as given.
    var path: String
    /// The session: replay only (`serve`) or recording through the live transport (`proxy`).
    let session: CassetteSession
    /// Where a recording tape sends origin-form requests; nil for replay, and for a forward
    /// proxy's recording (`proxy --intercept` with no upstream), which records only what
    /// clients send it as their proxy.
    let upstream: URL?
    /// `scheme://host[:port]/base` of ``upstream``, what an origin-form request's path and query
    /// are put after; made once, not for every request.
    let upstreamPrefix: String?
    /// The `Host` of a request sent to ``upstreamPrefix`` (`host[:port]`), made once.
    let upstreamAuthority: String?
    /// Whether the tape records (else it replays).
    var isRecording: Bool
    /// The bytes of the answers it replayed, encoded once each (``WireForms``).
    let wireForms: WireForms

    init(mount: String, path: String, session: CassetteSession, upstream: URL?, isRecording: Bool, wireBudget: WireBudget) {
        wireForms = WireForms(budget: wireBudget)
        self.mount = mount
        self.path = path
        self.session = session
        self.upstream = upstream
        let parts = upstream.map(Self.upstreamParts)
        upstreamPrefix = parts?.prefix
        upstreamAuthority = parts?.authority
        self.isRecording = isRecording
    }

    /// What an origin-form request's URL to `upstream` begins with, and that URL's authority
    /// (``Foundation/URL/authority``) when what follows begins with `/`: read from the prefix
    /// itself, so it is that URL's own.
    static func upstreamParts(_ upstream: URL) -> (prefix: String, authority: String?) {
        let prefix = Deck.originText(upstream) + Deck.basePath(upstream)
        return (prefix, URL(string: prefix).map(\.authority))
    }

    /// Whether a request path belongs under this tape's mount.
    func covers(_ path: String) -> Bool {
        mount.isEmpty || path == mount || path.hasPrefix(mount + "/") || path.hasPrefix(mount + "?")
    }

    /// `path` without the mount prefix (`/v1/users` under `/v1` → `/users`).
    func stripping(_ pathAndQuery: String) -> String {
        guard !mount.isEmpty, pathAndQuery.hasPrefix(mount) else { return pathAndQuery }
        let rest = String(pathAndQuery.dropFirst(mount.count))
        return rest.hasPrefix("/") ? rest : "/" + rest
    }
}
