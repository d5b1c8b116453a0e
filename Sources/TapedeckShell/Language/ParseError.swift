import Foundation
import Tapedeck

/// A script or REPL line that cannot be parsed, with its `file:line:column` and the fix.
///
/// ```
/// smoke.tape:3:1: unknown command 'gte'; did you mean 'get'? (type 'help' for the list)
/// ```
public struct ParseError: Error, LocalizedError, Hashable, Sendable {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// The first word is not a command.
        case unknownCommand(String, suggestion: String?)
        /// A `'` or `"` is never closed.
        case unclosedQuote(Character)
        /// A `<<EOF` heredoc has no closing delimiter line.
        case unclosedHeredoc(delimiter: String)
        /// A `{{` has no `}}`.
        case unclosedInterpolation
        /// `{{…}}` holds something that is not a variable name.
        case invalidVariableName(String)
        /// A command needs an argument that is missing.
        case missingArgument(command: String, expected: String)
        /// A command got more arguments than it takes.
        case unexpectedArgument(String, command: String)
        /// A keyword (show target, query, predicate, flag, mode) is not one of the valid ones.
        case unknownKeyword(String, kind: String, valid: [String], suggestion: String?)
        /// A JSONPath expression is malformed.
        case invalidJSONPath(String, reason: String)
        /// A regular expression does not compile.
        case invalidRegex(String, reason: String)
        /// A value has the wrong form (a count that is not a number, a bad variable name).
        case invalidValue(String, expected: String)
        /// A pasted `curl` command ends with a line continuation and nothing follows.
        case unfinishedCurl
        /// A pasted `curl` command Tapedeck cannot translate (the reason names the option).
        case invalidCurl(String)
    }

    /// What is wrong.
    public var kind: Kind
    /// Where.
    public var location: SourceLocation

    /// Creates an error.
    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// Whether more input could complete the text (an open heredoc), so the REPL should ask
    /// for another line instead of reporting.
    public var wantsMoreInput: Bool {
        if case .unclosedHeredoc = kind { return true }
        if case .unfinishedCurl = kind { return true }
        return false
    }

    public var errorDescription: String? { "\(location): \(message)" }

    /// The message without the location.
    public var message: String {
        switch kind {
        case .unknownCommand(let name, let suggestion):
            return "unknown command '\(Excerpt.of(name))'\(Suggestion.phrase(suggestion)) (type 'help' for the list)"
        case .unclosedQuote(let quote):
            return "unclosed \(quote) quote; add the closing \(quote) on the same line"
        case .unclosedHeredoc(let delimiter):
            return "heredoc '<<\(delimiter)' is never closed; end the body with a line containing only \(delimiter)"
        case .unclosedInterpolation:
            return "'{{' is never closed; write {{name}}"
        case .invalidVariableName(let name):
            return "'{{\(Excerpt.of(name))}}' is not a variable name; names are letters, digits, '_', '-' and '.' (e.g. {{token}}, {{env.HOME}})"
        case .missingArgument(let command, let expected):
            return "'\(command)' needs \(expected); usage: \(CommandHelp.usage(of: command))"
        case .unexpectedArgument(let text, let command):
            return "unexpected '\(Excerpt.of(text))' after '\(command)'; usage: \(CommandHelp.usage(of: command))"
        case .unknownKeyword(let found, let kind, let valid, let suggestion):
            return "unknown \(kind) '\(Excerpt.of(found))'\(Suggestion.phrase(suggestion)); valid: \(valid.joined(separator: ", "))"
        case .invalidJSONPath(let path, let reason):
            return "invalid JSONPath '\(Excerpt.of(path))': \(reason)"
        case .invalidRegex(let pattern, let reason):
            return "invalid regular expression /\(Excerpt.of(pattern))/: \(reason)"
        case .invalidValue(let value, let expected):
            return "'\(Excerpt.of(value))' is not \(expected)"
        case .unfinishedCurl:
            return "the curl command ends with a line continuation (\\); paste the rest of it"
        case .invalidCurl(let reason):
            return reason
        }
    }

    static func unknown(_ found: String, kind: String, valid: [String], at location: SourceLocation) -> ParseError {
        ParseError(.unknownKeyword(found, kind: kind, valid: valid,
                                   suggestion: Suggestion.closest(to: found, in: valid)), at: location)
    }
}
