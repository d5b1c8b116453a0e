import Foundation

extension HTTPRequest {
    /// This Tapedeck's version, as `tapedeck --version` prints it and the default `User-Agent`
    /// and HAR `creator` state it.
    package static let tapedeckVersion = "0.1.0"

    /// `tapedeck/0.1.0`: what the CLI, the REPL and scripts send as `User-Agent` (HTTPie sends
    /// `HTTPie/3.x`), instead of corelibs' `tapedeck (unknown version) curl/7.88.1`.
    package static let defaultUserAgent = "tapedeck/\(tapedeckVersion)"

    /// The headers every Tapedeck front end sends unless the request sets them:
    /// `User-Agent: tapedeck/<version>` and `Accept: */*`, in that order.
    package static let defaultHeaders: HTTPHeaders = ["User-Agent": defaultUserAgent, "Accept": "*/*"]

    /// Puts each of ``defaultHeaders`` the request does not already set (by name, any case)
    /// in front of its headers, as HTTPie does.
    ///
    /// ```swift
    /// var request = HTTPRequest(url: url, headers: ["Accept": "application/json"])
    /// request.addDefaultHeaders()   // User-Agent: tapedeck/0.1.0, Accept: application/json
    /// ```
    package mutating func addDefaultHeaders() {
        let missing = HTTPRequest.defaultHeaders.fields.filter { !headers.contains($0.name) }
        guard !missing.isEmpty else { return }
        headers = HTTPHeaders(missing + headers.fields)
    }
}
