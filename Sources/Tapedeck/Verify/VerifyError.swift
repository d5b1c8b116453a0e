import Foundation

/// Why a verification could not start or its result could not be saved.
public enum VerifyError: Error, LocalizedError, Sendable, Equatable {
    /// A `--compare` word that is not one of ``DriftOptions/compareWords``.
    case invalidCompare(String)
    /// An `--ignore` value that is not a JSON Pointer.
    case invalidIgnore(String)
    /// A `--methods` word that is not an HTTP method.
    case invalidMethod(String)
    /// An interaction still holds a placeholder no variable fills.
    case missingCredential(interaction: Int, field: String, variables: [String])
    /// An interaction would carry filled-in credentials to a host they were not recorded for
    /// (or, when the hosts allowed credentials are named, one not among them).
    case credentialsToOtherHost(interaction: Int, field: String, host: String, recordedHost: String, pinned: Bool)

    public var errorDescription: String? {
        switch self {
        case .invalidCompare(let word):
            return "'\(word)' is not something verify compares; use a comma-separated list of "
                + DriftOptions.compareWords.joined(separator: ", ") + " (e.g. status,headers:ETag,shape)"
        case .invalidIgnore(let pointer):
            return "'\(pointer)' is not a JSON Pointer to ignore; write it from the root, e.g. /data/updated_at (* matches any key or index)"
        case .invalidMethod(let word):
            return "'\(word)' is not an HTTP method; use a comma-separated list such as GET,HEAD,POST"
        case .missingCredential, .credentialsToOtherHost:
            return message(giving: { "as the variable \($0) (or the environment variable \($1))" },
                           allowing: { _, pinned in (why: pinned ? "which is not among the hosts allowed credentials" : nil,
                                                     fix: "add it to the hosts allowed credentials (credentialHosts)") })
        }
    }

    /// The credential errors' text, with the way to give a value (`giving(variable,
    /// environment)`) and to allow a host (`allowing(host, pinned)`: why it was refused when
    /// pinned, and the fix) worded by the reader's side: the core's options, or the command line's flags.
    package func message(giving: (_ variable: String, _ environment: String) -> String,
                         allowing: (_ host: String, _ pinned: Bool) -> (why: String?, fix: String)) -> String {
        switch self {
        case let .missingCredential(interaction, field, variables):
            return "interactions[\(interaction)].request \(field) holds \(Redactor.placeholder) and no variable fills it; "
                + "give the real value " + giving(variables[0], variables.last ?? variables[0])
        case let .credentialsToOtherHost(interaction, field, host, recordedHost, pinned):
            let allow = allowing(host, pinned)
            return "interactions[\(interaction)].request \(field) would carry a credential to \(host), "
                + (allow.why ?? "but it was recorded against \(recordedHost)") + "; nothing was sent. If \(host) should receive it, \(allow.fix)"
        default:
            return errorDescription ?? "\(self)"
        }
    }
}
