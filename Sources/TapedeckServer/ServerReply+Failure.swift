import Foundation
import Tapedeck

extension ServerReply {
    /// An error met carrying out `request`, as its client sees it: a timeout is 504, a
    /// connection or transport failure or an answer too large to take 502, anything else 500, each with
    /// ``ServerMarker/errorHeader``; logged as `error: METHOD URL: TEXT`.
    static func failure(_ error: any Error, request: HTTPRequest, log: @Sendable (String) -> Void) -> ServerReply {
        let (text, shown) = describe(error, sending: request)
        log("error: \(request.method) \(shown): \(text)")
        if let http = error as? HTTPError {
            switch http {
            case .timedOut: return ServerReply.text(504, text + "\n", headers: [ServerMarker.errorHeader: "504"])
            // What the upstream sent could not be taken (too large, a decompression bomb).
            case .cannotConnect, .hostNotFound, .noResponse, .tlsFailure, .transport, .headerTooLarge, .bodyTooLarge, .decompressionLimit:
                return ServerReply.text(502, text + "\n", headers: [ServerMarker.errorHeader: "502"])
            default: break
            }
        }
        // An upstream answer that cannot be recorded (a header no client could be sent) is the
        // upstream's fault: a bad gateway, with the reason.
        if case .invalidField? = error as? CassetteError {
            return ServerReply.text(502, text + "\n", headers: [ServerMarker.errorHeader: "502"])
        }
        return ServerReply.text(500, text + "\n", headers: [ServerMarker.errorHeader: "500"])
    }

    /// `error`, met sending `request`, as the log and a client of the server read it: the fix
    /// named in the server's own flags, and the request's URL (`shown`) with any credential in
    /// its query or userinfo redacted, wherever the text names it.
    static func describe(_ error: any Error, sending request: HTTPRequest) -> (text: String, shown: String) {
        var text = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
        // The fixes are the server's own flags (or, in code, the live transport's options).
        let http = error as? HTTPError
        switch http {
        case .timedOut?:
            text = (http?.failure ?? text) + "; if the upstream is just slow, raise the limit with --timeout SECONDS (tapedeck proxy), "
                + "or Options.timeout in the live transport's options"
        case .tlsFailure(let host, let detail)?:
            text = "TLS failure with \(host): \(detail); " + UpstreamTLSProblem(detail: detail).fix
        case .bodyTooLarge(let url, let limit)?:
            text = "the response body from \(Excerpt.of(url)) is larger than the limit of \(ByteCount.describe(limit)); "
                + "if you expect bodies this large, raise it with --max-upstream-body SIZE (tapedeck serve and proxy), "
                + "or BodyLimits.maximumBodySize in the live transport's options"
        default:
            break
        }
        return redacted(text, sending: request)
    }

    /// `text` as the log and a client may see it, with `request`'s URL (`shown`) redacted
    /// (a credential in its query or userinfo) wherever it names it.
    static func redacted(_ text: String, sending request: HTTPRequest) -> (text: String, shown: String) {
        let sent = request.urlText
        // A token known by its shape (a vendor key, a JWT) in the path is replaced too.
        let shown = Redactor.standard.redact(text: Redactor.shown(request.url))
        guard shown != sent else { return (Redactor.standard.redact(text: text), shown) }
        // Messages quote a long URL by its first characters (`Excerpt`), which the whole URL
        // would not match: both forms are replaced.
        let replaced = text.replacingOccurrences(of: sent, with: shown).replacingOccurrences(of: Excerpt.of(sent), with: Excerpt.of(shown))
        return (Redactor.standard.redact(text: replaced), shown)
    }

    /// A transport failure recorded in a cassette, as a client of the server meets it: a
    /// refused or dropped connection is a reset, a timeout never answers, an unresolved host is 502.
    static func replayedFailure(_ error: HTTPError, request: HTTPRequest, log: @Sendable (String) -> Void) -> ServerReply {
        let (text, shown) = redacted(error.errorDescription ?? "\(error)", sending: request)
        log("replaying a recorded failure for \(request.method) \(shown): \(text)")
        let placeholder = HTTPResponse(status: 502, headers: [ServerMarker.errorHeader: "502"], body: Data((text + "\n").utf8))
        switch error {
        case .cannotConnect, .noResponse: return ServerReply(response: placeholder, fault: .reset)
        case .timedOut: return ServerReply(response: placeholder, fault: .hang)
        default: return ServerReply(response: placeholder)
        }
    }
}
