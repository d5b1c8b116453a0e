import Foundation

/// The headers that mark an answer as Tapedeck's own rather than the served API's.
package enum ServerMarker {
    /// On an unmatched request's answer: the mismatch report is the body.
    package static let unmatchedHeader = "X-Tapedeck-Unmatched"
    /// On an answer to a request the server refused or could not carry out (431, 413, 400, 502).
    package static let errorHeader = "X-Tapedeck-Error"
    /// On a 508 Loop Detected: the `Via` name of the server that saw the request come around.
    /// A recording that gets such an answer from its upstream records nothing.
    package static let loopHeader = "X-Tapedeck-Loop"
    /// The reserved path prefix of the control endpoints.
    static let controlPrefix = "/__tapedeck/"
}
