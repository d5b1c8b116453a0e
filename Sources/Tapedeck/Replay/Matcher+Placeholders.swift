import Foundation

/// A recorded placeholder stands for any value in its place: a query item's value, a path
/// segment, a header value the matcher compares, a form field, a multipart field or a JSON
/// member. The redactor wrote it because the real value was a secret, so replay cannot expect
/// the same value back (a cookie learned from `Set-Cookie` while recording is a new one on the
/// next run). Only a whole value that is ``Redactor/placeholder`` (or its percent-encoded or
/// legacy query spelling) is a wildcard; nothing else is.
extension Matcher {
    /// Whether a recorded value is a placeholder that matches any value.
    static func isWildcard(_ recorded: String) -> Bool { Redactor.isWholePlaceholder(recorded) }

    /// Whether an index key may hold a placeholder in its path or query, so its request is a
    /// pattern: a scan of its bytes for `REDACTED`, which both spellings contain (indexing reads
    /// every key, so this stays a byte loop; ``urlMatches(pattern:_:)`` decides exactly).
    static func keyHasWildcard(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { bytes in
            let needle: [UInt8] = Array("REDACTED".utf8)
            guard bytes.count >= needle.count else { return false }
            var start = 0
            while start <= bytes.count - needle.count {
                if bytes[start] == needle[0] {
                    var matched = 1
                    while matched < needle.count, bytes[start + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }

    /// Whether `incoming` has the method and URL of `recorded`, a placeholder in a recorded path
    /// segment or query value matching any value there (query order and ignored items as in ``key(for:)``).
    func urlMatches(pattern recorded: HTTPRequest, _ incoming: HTTPRequest) -> Bool {
        guard recorded.method == incoming.method else { return false }
        let a = NormalizedURL(recorded.storedURL), b = NormalizedURL(incoming.storedURL)
        guard a.origin == b.origin else { return false }
        if a.path != b.path {
            let x = a.path.split(separator: "/", omittingEmptySubsequences: false)
            let y = b.path.split(separator: "/", omittingEmptySubsequences: false)
            guard x.count == y.count else { return false }
            for (left, right) in zip(x, y) where left != right && !Self.isWildcard(String(left)) { return false }
        }
        let kept = { (items: [QueryItem]) in items.filter { !ignoredQueryItems.contains($0.name) }.map { ($0.name, $0.value) } }
        return Self.pairsMatch(recorded: kept(a.query), incoming: kept(b.query))
    }

    /// Whether two lists of named values are equal as multisets, order ignored, a recorded
    /// placeholder matching any one value of the same name.
    static func pairsMatch(recorded: [(String, String?)], incoming: [(String, String?)]) -> Bool {
        guard recorded.count == incoming.count else { return false }
        var unmatched = incoming
        var wildcards: [String] = []
        for (name, value) in recorded {
            if let value, isWildcard(value) {
                wildcards.append(name)
                continue
            }
            guard let position = unmatched.firstIndex(where: { $0.0 == name && $0.1 == value }) else { return false }
            unmatched.remove(at: position)
        }
        for name in wildcards {
            guard let position = unmatched.firstIndex(where: { $0.0 == name }) else { return false }
            unmatched.remove(at: position)
        }
        return unmatched.isEmpty
    }

    /// Whether recorded header values match incoming ones in order, a placeholder matching any value.
    static func valuesMatch(recorded: [String], incoming: [String]) -> Bool {
        recorded.count == incoming.count && zip(recorded, incoming).allSatisfy { $0 == $1 || isWildcard($0) }
    }
}

extension JSONValue {
    /// ``semanticallyEquals(_:)`` with recorded `"<REDACTED>"` strings matching any value in their place.
    func matches(incoming other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.string(a), _) where Matcher.isWildcard(a): return true
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.matches(incoming: $1) }
        case let (.object(a), .object(b)):
            let left = Dictionary(a.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let right = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            guard left.count == right.count else { return false }
            return left.allSatisfy { key, value in right[key].map { value.matches(incoming: $0) } ?? false }
        default:
            return semanticallyEquals(other)
        }
    }
}
