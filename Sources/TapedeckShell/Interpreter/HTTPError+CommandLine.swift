import Foundation
import Tapedeck

extension HTTPError {
    /// The message for the REPL, scripts and the command line: the core's, with the fix said as the
    /// `tapedeck` option that applies it (`--timeout`, `--insecure`) where there is one.
    public var commandLineDescription: String {
        switch self {
        case .timedOut: failure + "; raise it with --timeout SECONDS"
        case .tlsFailure: failure + "; if you trust this server, retry with --insecure"
        case .bodyTooLarge: failure + "; raise it with --max-body-size SIZE (e.g. 1G), or pipe the body or use --download FILE"
        default: errorDescription ?? "\(self)"
        }
    }
}
