import Foundation
import Tapedeck

/// The positional words of `tapedeck [METHOD] URL [ITEM...]`, split the way HTTPie guesses:
/// the first word is a method when it is a known method name or an upper-case token and
/// something follows it; otherwise it is the URL.
public struct CommandLineRequest: Sendable, Hashable {
    /// The method typed, or nil when the items decide (GET, or POST with body items).
    public var method: HTTPMethod?
    /// The URL as typed.
    public var url: String
    /// The request items as typed.
    public var items: [String]

    /// Creates a split request.
    public init(method: HTTPMethod?, url: String, items: [String]) {
        self.method = method
        self.url = url
        self.items = items
    }

    /// Methods accepted in any case besides the common seven (WebDAV and friends).
    public static let extendedMethods = ["TRACE", "CONNECT", "PURGE", "QUERY", "PROPFIND", "PROPPATCH",
                                         "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "REPORT", "SEARCH", "LINK", "UNLINK"]

    /// Splits positional words; throws for a missing URL (none, or an upper-case method name
    /// alone) or a misspelt method.
    public static func split(_ words: [String]) throws(CommandLineRequestError) -> CommandLineRequest {
        guard let first = words.first else { throw .missingURL }
        // `tapedeck GET` alone is a method without its URL, not a host called GET.
        if words.count == 1, HTTPMethod.common.contains(where: { $0.rawValue == first }) || extendedMethods.contains(first) {
            throw .missingURL
        }
        guard words.count > 1, isMethodLike(first, next: words[1]) else {
            return CommandLineRequest(method: nil, url: first, items: Array(words.dropFirst()))
        }
        let upper = first.uppercased()
        let known = HTTPMethod.common.map(\.rawValue) + extendedMethods
        if !known.contains(upper) {
            // A near miss of a method (`GTE`, `POTS`, `delet`) is a typo, not a custom method.
            let nearest = known.map { ($0, editDistance($0, upper)) }.min { $0.1 < $1.1 }
            if let nearest, nearest.1 <= (first == upper ? 1 : 2) { throw .unknownMethod(first, suggestion: nearest.0) }
            guard first == upper else { throw .unknownMethod(first, suggestion: nil) }
        }
        let method: HTTPMethod
        do { method = try HTTPMethod(validating: known.contains(upper) ? upper : first) } catch {
            throw .unknownMethod(first, suggestion: nil)
        }
        return CommandLineRequest(method: method, url: words[1], items: Array(words.dropFirst(2)))
    }

    private static func isMethodLike(_ word: String, next: String) -> Bool {
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        let upper = word.uppercased()
        if HTTPMethod.common.contains(where: { $0.rawValue == upper }) || extendedMethods.contains(upper) { return true }
        if word == upper { return true }
        // A lower-case word followed by a URL-looking word is a misspelt method (`gte :8080`).
        return next.contains("://") || next.hasPrefix(":") || next.contains("/")
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
    /// transpositions each cost 1.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

/// Positional words that do not form a request.
public enum CommandLineRequestError: Error, LocalizedError, Sendable, Equatable {
    /// No URL was given.
    case missingURL
    /// The method word is not a method.
    case unknownMethod(String, suggestion: String?)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .missingURL:
            return "no URL given; write tapedeck [METHOD] URL [ITEM...], e.g. tapedeck :8080/get or tapedeck POST example.org/post name=Ada"
        case .unknownMethod(let method, let suggestion?):
            return "unknown method '\(method)'; did you mean \(suggestion)? (methods: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS; custom methods are upper-case tokens such as PURGE)"
        case .unknownMethod(let method, nil):
            return "unknown method '\(method)'; use GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, or an upper-case custom token such as PURGE"
        }
    }
}
