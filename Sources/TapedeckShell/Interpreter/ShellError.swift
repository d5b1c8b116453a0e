import Foundation
import Tapedeck

/// Everything that can stop a command at run time, with its location and the fix.
public enum ShellError: Error, LocalizedError, Sendable {
    /// The input did not parse.
    case parse(ParseError)
    /// `{{name}}` names no variable.
    case undefinedVariable(String, suggestion: String?, at: SourceLocation)
    /// `expect`, `capture` or `show response` before any request.
    case noResponse(command: String, at: SourceLocation)
    /// A command needs a response, but the last request failed (`failure` says which and why).
    case requestFailed(command: String, failure: String, at: SourceLocation)
    /// An `expect` failed.
    case assertionFailed(AssertionFailure)
    /// Building the request failed (bad URL, bad item, unreadable file).
    case invalidRequest(String, at: SourceLocation)
    /// Sending failed (connection refused, timeout, TLS).
    case transport(String, at: SourceLocation)
    /// The request was cancelled with Ctrl-C.
    case cancelled(at: SourceLocation)
    /// `include` names a file that does not exist or cannot be read.
    case includeUnreadable(path: String, reason: String, at: SourceLocation)
    /// `include` of a file that is already being included.
    case includeRecursion(chain: [String], at: SourceLocation)
    /// A cassette command with no cassette support wired in.
    case cassettesUnavailable(at: SourceLocation)
    /// A cassette could not be recorded or replayed.
    case cassette(String, at: SourceLocation)
    /// A file could not be written (`save`).
    case writeFailed(path: String, reason: String, at: SourceLocation)
    /// An OpenAPI document could not be read (`openapi`), or `ls` has none to list.
    case openAPI(String, at: SourceLocation)

    /// How a script run reports this error.
    public enum Category: Sendable {
        /// Exit 2.
        case parse
        /// Exit 3.
        case runtime
        /// Exit 4.
        case assertion
    }

    /// The category that decides the exit code.
    public var category: Category {
        switch self {
        case .parse: .parse
        case .assertionFailed: .assertion
        default: .runtime
        }
    }

    /// Where the error happened.
    public var location: SourceLocation {
        switch self {
        case .parse(let error): error.location
        case .assertionFailed(let failure): failure.location
        case .undefinedVariable(_, _, let at), .noResponse(_, let at), .requestFailed(_, _, let at), .invalidRequest(_, let at),
             .transport(_, let at), .cancelled(let at), .includeUnreadable(_, _, let at),
             .includeRecursion(_, let at), .cassettesUnavailable(let at), .cassette(_, let at),
             .writeFailed(_, _, let at), .openAPI(_, let at):
            at
        }
    }

    public var errorDescription: String? {
        switch self {
        case .parse(let error):
            return error.errorDescription
        case .undefinedVariable(let name, let suggestion, let at):
            if name.hasPrefix("env.") {
                return "\(at): undefined variable '{{\(Excerpt.of(name))}}': \(name.dropFirst(4)) is not in the environment; export it, or pass --var"
            }
            let define = "define it with 'set \(name) = …', 'capture \(name) = …' or --var \(name)=…"
            let hint = suggestion.map { "did you mean '{{\($0)}}'? Or \(define)" } ?? define
            return "\(at): undefined variable '{{\(Excerpt.of(name))}}'; \(hint)"
        case .noResponse(let command, let at):
            return "\(at): '\(command)' needs a response, but no request has been sent yet; send one first (e.g. get /)"
        case .requestFailed(let command, let failure, let at):
            return "\(at): '\(command)' has no response to check: the last request failed (\(failure)); "
                + "fix the request or the server and send it again"
        case .assertionFailed(let failure):
            return failure.message
        case .invalidRequest(let message, let at), .transport(let message, let at), .cassette(let message, let at),
             .openAPI(let message, let at):
            return "\(at): \(message)"
        case .cancelled(let at):
            return "\(at): request cancelled"
        case .includeUnreadable(let path, let reason, let at):
            return "\(at): cannot include '\(Excerpt.of(path))': \(reason); paths are relative to the including script's folder"
        case .includeRecursion(let chain, let at):
            return "\(at): include recursion: \(chain.joined(separator: " → ")); remove the include that loops back"
        case .cassettesUnavailable(let at):
            return "\(at): cassettes are not available in this build yet; requests go live"
        case .writeFailed(let path, let reason, let at):
            return "\(at): cannot write '\(Excerpt.of(path))': \(reason)"
        }
    }
}
