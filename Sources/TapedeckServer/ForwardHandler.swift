import Foundation
import Tapedeck

/// Sends a request nothing before it answered on to ``DeckOptions/upstream`` and answers
/// from there (not recorded), when the policy is `--unmatched forward`. It passes when the
/// policy names a status, when there is no upstream, and when no tape was mounted over the
/// path (``TapeMiss/noTape(report:)``: the unmatched answer says how to load one).
package struct ForwardHandler: ServerHandler {
    /// The policy, the upstream, the live transport and the log.
    private let options: DeckOptions
    /// What this server adds to `Via` (``LoopHandler``).
    private let via: String

    /// Creates the forwarding step of a deck with `options`, naming itself `via` upstream.
    package init(options: DeckOptions, via: String = "tapedeck") {
        self.options = options
        self.via = via
    }

    /// Passes at once when forwarding does not apply; otherwise it waits for the upstream.
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer {
        applies ? .waits : .passed
    }

    /// Whether the policy forwards, there is an upstream, and no tape was mounted over the path.
    private var applies: Bool {
        options.unmatched == .forward && options.upstream != nil && HandlerNotes.current?.tapeMiss?.allowsForwarding ?? true
    }

    /// The upstream's answer to `request`, a 400 when it cannot be sent, a 502/504/500 when
    /// sending failed; nil when forwarding does not apply.
    package func respond(to request: IncomingRequest) async -> ServerReply? {
        guard applies, let upstream = options.upstream else { return nil }
        let target = Deck.originText(upstream) + Deck.basePath(upstream) + request.pathAndQuery
        guard let url = PercentEncoding.url(target), let method = try? HTTPMethod(validating: request.method) else {
            return ServerReply.text(400, "cannot forward \(request.method) \(request.target)\n", headers: [ServerMarker.errorHeader: "400"])
        }
        let sent = HTTPRequest(method: method, url: url,
                               headers: ProxyHeaders.forUpstream(request.headers, url: url, client: request.remoteAddress, forward: false, via: via, upstream: upstream),
                               body: request.body.isEmpty ? nil : request.body)
        do {
            let response = try await options.live.send(sent)
            HandlerNotes.current?.outcome = "forwarded"
            return ServerReply(response: ProxyHeaders.forClient(response, for: sent))
        } catch {
            return ServerReply.failure(error, request: sent, log: options.log)
        }
    }
}

extension ServerHandler where Self == ForwardHandler {
    /// Forwarding to the upstream of `deck` (``ForwardHandler``).
    package static func forward(_ deck: Deck) -> ForwardHandler {
        ForwardHandler(options: deck.options, via: deck.viaName)
    }
}
