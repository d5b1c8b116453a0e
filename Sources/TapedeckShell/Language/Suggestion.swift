/// "Did you mean …" by edit distance.
enum Suggestion {
    /// The candidate closest to `word` when it is close enough to be a likely typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        // The distance is at least the difference in length: a word far longer than every
        // candidate is no typo, and measuring it would cost its length times each candidate's.
        let longest = candidates.map(\.count).max() ?? 0
        guard word.utf8.count <= 4 * (longest + 3) else { return nil }
        let lowered = word.lowercased()
        let limit = max(1, min(3, lowered.count / 3 + 1))
        var best: (String, Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, candidate.lowercased())
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        if best == nil, lowered.count >= 3 {
            return candidates.first { $0.lowercased().hasPrefix(lowered) }
        }
        return best?.0
    }

    /// Levenshtein distance counting an adjacent swap as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var previous2 = [Int](repeating: 0, count: y.count + 1)
        var previous = Array(0...y.count)
        var current = [Int](repeating: 0, count: y.count + 1)
        for i in 1...x.count {
            current[0] = i
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[y.count]
    }

    /// `; did you mean 'x'?` or an empty string.
    static func phrase(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
}
