import Foundation

/// Where each ``Matcher/key(for:)`` occurs in a cassette, in recorded order: what makes a
/// replay lookup cost the same at 100 or 100,000 interactions.
///
/// The first position of each key sits in one dictionary and the rest in a flat array that
/// links each position to the next with the same key, so a lookup touches one hash bucket
/// and no per-key array.
struct ReplayIndex: Sendable {
    private let heads: [String: Int]
    /// For each position, the next position with the same key, or -1.
    private let links: [Int]
    /// The positions whose request holds a placeholder in its path or query (patterns that
    /// match any value there), by ``patternBucket(method:url:)``: a request is compared only
    /// with the patterns of its own method, origin and path (or path length, for patterns
    /// with a placeholder segment), never with every pattern of the cassette.
    private let patterns: [String: [Int]]

    /// Indexes `interactions` by `matcher`'s key of their requests.
    init(_ interactions: [Interaction], matcher: Matcher) {
        // The keys are worked out across cores; the dictionary is filled in order on this thread.
        let keys = ChunkedWork.map(interactions.count) { matcher.key(for: interactions[$0].request) }
        var heads: [String: Int] = [:]
        heads.reserveCapacity(interactions.count)
        var links = Array(repeating: -1, count: interactions.count)
        // For each key's first position, the last position with that key so far.
        var tails = Array(repeating: -1, count: interactions.count)
        var patterns: [String: [Int]] = [:]
        for (position, key) in keys.enumerated() {
            if Matcher.keyHasWildcard(key) {
                let interaction = interactions[position]
                let url = NormalizedURL(interaction.request.url)
                let bucket = url.path.split(separator: "/", omittingEmptySubsequences: false).contains { Matcher.isWildcard(String($0)) }
                    ? Self.segmentBucket(method: interaction.request.method, url: url)
                    : Self.pathBucket(method: interaction.request.method, url: url)
                patterns[bucket, default: []].append(position)
            }
            // One hash of the key: the first position is stored when the key is new.
            let head = Self.value(&heads[key, default: position])
            if head != position { links[tails[head]] = position }
            tails[head] = position
        }
        self.heads = heads
        self.links = links
        self.patterns = patterns
    }

    /// The value `slot` holds, read through the in-place access a defaulted subscript gives.
    private static func value(_ slot: inout Int) -> Int { slot }

    /// The first position recorded with `key`, if any.
    func first(_ key: String) -> Int? { heads[key] }

    /// The next position after `position` with the same key, if any.
    func next(after position: Int) -> Int? {
        let next = links[position]
        return next < 0 ? nil : next
    }

    /// Whether any recorded request holds a placeholder in its path or query.
    var hasPatterns: Bool { !patterns.isEmpty }

    /// The patterns a request with `method` and `url` may match, in recorded order.
    func patterns(method: HTTPMethod, url: NormalizedURL) -> [Int] {
        let byPath = patterns[Self.pathBucket(method: method, url: url)] ?? []
        let bySegments = patterns[Self.segmentBucket(method: method, url: url)] ?? []
        if bySegments.isEmpty { return byPath }
        if byPath.isEmpty { return bySegments }
        return (byPath + bySegments).sorted()
    }

    private static func pathBucket(method: HTTPMethod, url: NormalizedURL) -> String {
        "\(method.rawValue) \(url.origin)\(url.path)"
    }

    private static func segmentBucket(method: HTTPMethod, url: NormalizedURL) -> String {
        "\(method.rawValue) \(url.origin) \(url.path.split(separator: "/", omittingEmptySubsequences: false).count) segments"
    }

    /// Every position recorded with `key`, in order.
    func positions(_ key: String) -> [Int] {
        var result: [Int] = []
        var position = heads[key]
        while let current = position {
            result.append(current)
            position = next(after: current)
        }
        return result
    }
}
