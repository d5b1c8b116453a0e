import Foundation

/// Which interactions of a cassette are older than a ``MaxAge``.
///
/// ```swift
/// let expiry = CassetteExpiry(cassette, maxAge: try MaxAge(parsing: "30d", source: "TAPEDECK_MAX_AGE"))
/// if !expiry.expired.isEmpty { print(expiry.report(path: "Sessions/api.cassette.json")) }
/// ```
public struct CassetteExpiry: Sendable, Hashable {
    /// One expired interaction.
    public struct Entry: Sendable, Hashable {
        /// Its index.
        public var index: Int
        /// `GET http://…`.
        public var summary: String
        /// Its age in seconds.
        public var age: TimeInterval
    }

    /// The limit.
    public var maxAge: MaxAge
    /// The expired interactions, in cassette order.
    public var expired: [Entry]

    /// Finds the interactions older than `maxAge` at `now`.
    public init(_ cassette: Cassette, maxAge: MaxAge, now: Date = Date()) {
        self.maxAge = maxAge
        let old = cassette.interactions.indices.compactMap { index -> (Int, TimeInterval)? in
            let age = now.timeIntervalSince(cassette.interactions[index].recordedAt)
            return age > maxAge.seconds ? (index, age) : nil
        }
        // URLs shown as `cassette show` shows them: redacted, whatever the file holds.
        let urls = old.isEmpty ? [] : Redactor.standard.listedURLs(of: cassette)
        expired = old.map { index, age in Entry(index: index, summary: "\(cassette.interactions[index].request.method) \(urls[index])", age: age) }
    }

    /// `2 of 5 interactions in PATH are older than 30d:` and a line per interaction (first five).
    public func report(path: String, total: Int) -> String {
        let shown = expired.prefix(5).map { "  #\($0.index) \($0.summary) (recorded \(MaxAge.describe($0.age)) ago)" }
        let more = expired.count > 5 ? ["  … and \(expired.count - 5) more"] : []
        return (["\(expired.count) of \(total) interactions in \(path) are older than \(maxAge):"] + shown + more)
            .joined(separator: "\n")
    }
}
