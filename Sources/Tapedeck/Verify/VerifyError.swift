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

    public var errorDescription: String? {
        switch self {
        case .invalidCompare(let word):
            return "'\(word)' is not something verify compares; use a comma-separated list of "
                + DriftOptions.compareWords.joined(separator: ", ") + " (e.g. status,headers:ETag,shape)"
        case .invalidIgnore(let pointer):
            return "'\(pointer)' is not a JSON Pointer to ignore; write it from the root, e.g. /data/updated_at (* matches any key or index)"
        case .invalidMethod(let word):
            return "'\(word)' is not an HTTP method; use a comma-separated list such as GET,HEAD,POST"
        case let .missingCredential(interaction, field, variables):
            return "interactions[\(interaction)].request \(field) holds \(Redactor.placeholder) and no variable fills it; "
                + "give the real value as the variable \(variables[0]) (or the environment variable \(variables.last ?? variables[0]))"
        }
    }
}
