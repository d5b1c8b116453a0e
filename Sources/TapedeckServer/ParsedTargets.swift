import Foundation
import Tapedeck
import Synchronization

/// The URLs of the request targets a server saw last, parsed once each.
///
/// A replay server is asked for the same few URLs again and again, and parsing one
/// (`URL(string:)`) cost more than finding its recorded answer. The table holds at most
/// ``limit`` targets of at most ``longest`` bytes and starts again empty when full, so a
/// client that never repeats a URL costs one lookup more per request and no growth, and the
/// table holds at most a few megabytes whatever the targets.
final class ParsedTargets: Sendable {
    /// The most targets held.
    let limit: Int
    /// The longest target held, in bytes; longer ones are parsed each time.
    let longest = 1_024
    private let table = Mutex<[String: URL]>([:])

    /// The table every server of this process shares.
    static let shared = ParsedTargets(limit: 4_096)

    /// Creates an empty table of at most `limit` targets.
    init(limit: Int) {
        self.limit = limit
    }

    /// `target` parsed (``PercentEncoding/url(_:)``), or nil when it is no URL.
    func url(_ target: String) -> URL? {
        guard target.utf8.count <= longest else { return PercentEncoding.url(target) }
        if let known = table.withLock({ $0[target] }) { return known }
        guard let url = PercentEncoding.url(target) else { return nil }
        table.withLock { table in
            if table.count >= limit { table.removeAll(keepingCapacity: true) }
            table[target] = url
        }
        return url
    }

    /// How many targets are held now.
    var count: Int { table.withLock { $0.count } }
}
