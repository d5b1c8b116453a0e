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
    /// The positions whose request holds a placeholder in its path or query: patterns that
    /// match any value there, tried only when a request's own key is not in the index.
    let wildcards: [Int]

    /// Indexes `interactions` by `matcher`'s key of their requests.
    init(_ interactions: [Interaction], matcher: Matcher) {
        var heads: [String: Int] = [:]
        var tails: [String: Int] = [:]
        heads.reserveCapacity(interactions.count)
        var links = Array(repeating: -1, count: interactions.count)
        var wildcards: [Int] = []
        for (position, interaction) in interactions.enumerated() {
            let key = matcher.key(for: interaction.request)
            if Matcher.keyHasWildcard(key) { wildcards.append(position) }
            if let tail = tails.updateValue(position, forKey: key) {
                links[tail] = position
            } else {
                heads[key] = position
            }
        }
        self.heads = heads
        self.links = links
        self.wildcards = wildcards
    }

    /// The first position recorded with `key`, if any.
    func first(_ key: String) -> Int? { heads[key] }

    /// The next position after `position` with the same key, if any.
    func next(after position: Int) -> Int? {
        let next = links[position]
        return next < 0 ? nil : next
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
