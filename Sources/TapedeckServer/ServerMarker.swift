import Foundation

/// The headers that mark an answer as Tapedeck's own rather than the served API's.
package enum ServerMarker {
    /// On an unmatched request's answer: the mismatch report is the body.
    package static let unmatchedHeader = "X-Tapedeck-Unmatched"
    /// On an answer to a request the server refused or could not carry out (431, 413, 400, 502).
    package static let errorHeader = "X-Tapedeck-Error"
    /// The reserved path prefix of the control endpoints.
    static let controlPrefix = "/__tapedeck/"
}
