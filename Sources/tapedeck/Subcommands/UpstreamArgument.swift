import ArgumentParser
import Foundation
import Tapedeck

/// The upstream a server sends requests on to (`tapedeck proxy UPSTREAM`, `tapedeck serve
/// --upstream URL`): an http or https URL with a host and, at most, a path prefix.
enum UpstreamArgument {
    /// `text` as an upstream URL, or the error that says what is wrong with it, quoting it with
    /// any credential in it redacted. `usage` is the command line an example shows.
    static func parse(_ text: String, usage: (String) -> String) throws -> URL {
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw ValidationError("the upstream is not an http or https URL with a host; give scheme and host, e.g. \(usage("http://127.0.0.1:8000"))")
        }
        // A query or fragment would be dropped from every request sent on, and a query is where
        // an API key sits: refused, never quoted.
        guard url.query == nil, url.fragment == nil else {
            var shown = URLComponents(url: Redactor.redactingPassword(url), resolvingAgainstBaseURL: false)
            shown?.query = nil
            shown?.fragment = nil
            let prefix = shown?.string ?? "the URL"
            throw ValidationError("the upstream \(prefix) has a \(url.query != nil ? "query (?…)" : "fragment (#…)"), which would be dropped: "
                + "each request keeps its own path and query, sent on under the upstream's scheme, host and path prefix. "
                + "Give the upstream without it, e.g. \(usage(prefix)); to add a credential to every request, send it from the client")
        }
        return url
    }
}
