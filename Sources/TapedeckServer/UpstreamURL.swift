import Foundation
import Tapedeck

/// The upstream a server sends requests on to (`tapedeck proxy UPSTREAM`, `tapedeck serve
/// --upstream URL`, `/__tapedeck/record/start?upstream=`): an http or https URL with a host
/// and, at most, a path prefix. One rule for every door an upstream comes in by.
package enum UpstreamURL {
    /// Why a text is not an upstream, quoting it without a credential.
    package struct Refusal: Error, Sendable {
        /// The whole message, with the fix.
        package let message: String
    }

    /// `text` as an upstream URL, or why not; `example` is the usage an example shows, given an upstream.
    package static func parse(_ text: String, example: (String) -> String) throws(Refusal) -> URL {
        if URLTextAuthority.hasRawDelimiterInPassword(text) {
            throw Refusal(message: "the upstream '\(quoted(text))' cannot be read: \(URLTextAuthority.rawDelimiterProblem)")
        }
        // Quoted as typed: Foundation's reading of it escapes what it does not take.
        guard let url = URL(string: text), isHTTP(url) else { throw notHTTP(text, example: example) }
        try checkPrefix(url, example: example)
        return url
    }

    private static func isHTTP(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "") && url.host?.isEmpty == false
    }

    /// Refuses `url` as an upstream unless it is http or https with a host, and no query or
    /// fragment: the rule an upstream given in code
    /// (``CassetteServer/proxy(to:recordingTo:mode:host:port:options:)``) meets too.
    package static func check(_ url: URL, example: (String) -> String) throws(Refusal) {
        guard isHTTP(url) else { throw notHTTP(url.absoluteString, example: example) }
        try checkPrefix(url, example: example)
    }

    private static func notHTTP(_ text: String, example: (String) -> String) -> Refusal {
        Refusal(message: "the upstream '\(quoted(text))' is not an http or https URL with a host; give scheme and host, "
            + "e.g. \(example("http://127.0.0.1:8000"))")
    }

    /// Refuses an upstream with a query or fragment.
    private static func checkPrefix(_ url: URL, example: (String) -> String) throws(Refusal) {
        // A query or fragment would be dropped from every request sent on, and a query is where
        // an API key sits: refused, never quoted.
        guard url.query == nil, url.fragment == nil else {
            let prefix = quoted(url.absoluteString)
            // The example is to be copied: a password shows as a word to fill in, not a placeholder.
            let fillIn = prefix.replacingOccurrences(of: Redactor.encodedPlaceholder, with: "PASSWORD")
            throw Refusal(message: "the upstream \(prefix) has a \(url.query != nil ? "query (?…)" : "fragment (#…)"), which would be dropped: "
                + "each request keeps its own path and query, sent on under the upstream's scheme, host and path prefix. "
                + "Give the upstream without it, e.g. \(example(fillIn)); to add a credential to every request, send it from the client")
        }
    }

    /// `text` as it may be shown: without its query and fragment, and with the password of its
    /// userinfo redacted.
    /// Control characters are escaped: the text may be anything typed.
    static func quoted(_ text: String) -> String {
        // The password is replaced first: one typed with a raw `?` or `#` would be cut in two.
        let shown = Redactor.shownURLText(text)
        let authorityEnd = URLTextAuthority(shown, rawPasswords: true)?.end ?? shown.startIndex
        return String(shown[..<(shown[authorityEnd...].firstIndex(where: { $0 == "?" || $0 == "#" }) ?? shown.endIndex)])
    }
}
