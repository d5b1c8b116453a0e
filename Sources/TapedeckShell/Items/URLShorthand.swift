import Foundation
import Tapedeck

/// HTTPie's URL shorthands: `:8080/x` is `http://localhost:8080/x`, `:/x` is
/// `http://localhost/x`, and a URL without a scheme (`example.org/x`, `localhost:5000`) gets
/// `http://`.
public enum URLShorthand {
    /// The URL text with the shorthand expanded (not yet validated).
    public static func expand(_ input: String) -> String {
        let trimmed = input.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix(":") {
            let rest = trimmed.dropFirst()
            if rest.isEmpty { return "http://localhost" }
            if rest.hasPrefix("/") { return "http://localhost" + rest }
            return "http://localhost:" + rest
        }
        if trimmed.contains("://") || trimmed.isEmpty { return trimmed }
        if trimmed.hasPrefix("//") { return "http:" + trimmed }
        return "http://" + trimmed
    }

    /// Whether `input` is the localhost shorthand: `:` then a port or a path (`:8000/get`, `:/x`).
    public static func isLocalhost(_ input: String) -> Bool {
        guard input.hasPrefix(":"), let next = input.dropFirst().first else { return input == ":" }
        return next.isASCII && (next.isNumber || next == "/")
    }

    /// Expands and validates a URL typed on the command line; errors name the input as typed.
    public static func parse(_ input: String) throws(HTTPError) -> URL {
        let expanded = expand(input)
        do {
            return try URLComposer.parseBase(expanded)
        } catch {
            if case .invalidURL(_, let reason) = error { throw .invalidURL(input: input, reason: reason) }
            throw error
        }
    }
}
