import Foundation

/// Where each ``Matcher/key(for:)`` occurs in a cassette, in recorded order: what makes a
/// replay lookup cost the same at 100 or 100,000 interactions.
///
/// The index holds no key strings for nearly all interactions. A key is almost always the
/// request's method, a space and its URL as recorded (a lower-case origin, the query in
/// order); such a key is compared with the interaction's own request, and only the others
/// are kept, by position. The first position of each key sits in an open-addressed table of
/// 8-byte slots (the key's hash and the position), and the rest in a flat array that links
/// each position to the next with the same key. At 100,000 interactions that is about 2.5 MB,
/// where a dictionary of key strings held 20 MB (a fifth of what serving such a file keeps).
struct ReplayIndex: Sendable {
    /// The interactions indexed (the cassette's own array: shared, not copied).
    private let interactions: [Interaction]
    /// Each slot is empty (0), or holds a key's first position + 1 in its low 32 bits and the
    /// high 32 bits of the key's hash above them. There are always more slots than keys.
    private let slots: [UInt64]
    /// For each position, the next position with the same key, or -1. (Positions fit in 32
    /// bits: 2^31 interactions would take hundreds of gigabytes to load.)
    private let links: [Int32]
    /// The keys that are not their request's method, a space and its URL, by position.
    private let writtenKeys: [Int32: String]
    /// The positions whose request holds a placeholder in its path or query (patterns that
    /// match any value there), by ``patternBucket(method:url:)``: a request is compared only
    /// with the patterns of its own method, origin and path (or path length, for patterns
    /// with a placeholder segment), never with every pattern of the cassette.
    private let patterns: [String: [Int]]

    /// How many interactions have their keys worked out together, across cores: the keys of
    /// one block are held at a time, never those of the whole cassette.
    private static let block = 8_192

    /// Indexes `interactions` by `matcher`'s key of their requests.
    init(_ interactions: [Interaction], matcher: Matcher) {
        var slots = [UInt64](repeating: 0, count: Self.slotCount(for: interactions.count))
        let mask = slots.count - 1
        var links = [Int32](repeating: -1, count: interactions.count)
        // For each key's first position, the last position with that key so far.
        var tails = [Int32](repeating: -1, count: interactions.count)
        var writtenKeys: [Int32: String] = [:]
        var patterns: [String: [Int]] = [:]
        var start = 0
        while start < interactions.count {
            let end = min(start + Self.block, interactions.count)
            // Each key is read, hashed and checked across cores; only the table is filled in order.
            let keys = ChunkedWork.map(end - start) { [start] offset -> (key: String, hash: Int, isRequestLine: Bool, hasWildcard: Bool) in
                let request = interactions[start + offset].request
                let key = matcher.key(for: request)
                return (key, key.hashValue, Self.isRequestLine(key, of: request), Matcher.keyHasWildcard(key))
            }
            for (offset, keyed) in keys.enumerated() {
                let position = start + offset
                let request = interactions[position].request
                let key = keyed.key
                if !keyed.isRequestLine { writtenKeys[Int32(position)] = key }
                if keyed.hasWildcard {
                    let url = NormalizedURL(request.storedURL)
                    let bucket = url.path.split(separator: "/", omittingEmptySubsequences: false).contains { Matcher.isWildcard(String($0)) }
                        ? Self.segmentBucket(method: request.method, url: url)
                        : Self.pathBucket(method: request.method, url: url)
                    patterns[bucket, default: []].append(position)
                }
                let hash = keyed.hash
                var slot = hash & mask
                while true {
                    let entry = slots[slot]
                    if entry == 0 {
                        slots[slot] = Self.tag(hash) << 32 | UInt64(position + 1)
                        tails[position] = Int32(position)
                        break
                    }
                    let head = Int(entry & 0xFFFF_FFFF) - 1
                    if entry >> 32 == Self.tag(hash),
                       Self.holds(key, at: head, interactions: interactions, writtenKeys: writtenKeys) {
                        links[Int(tails[head])] = Int32(position)
                        tails[head] = Int32(position)
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
            start = end
        }
        self.interactions = interactions
        self.slots = slots
        self.links = links
        self.writtenKeys = writtenKeys
        self.patterns = patterns
    }

    /// A power of two above `count` by a third at least, so probes stay short and one slot is
    /// always empty.
    private static func slotCount(for count: Int) -> Int {
        var slots = 1
        while slots < count + count / 3 + 1 { slots <<= 1 }
        return slots
    }

    /// The high 32 bits of a key's hash, kept in its slot.
    private static func tag(_ hash: Int) -> UInt64 { UInt64(UInt32(truncatingIfNeeded: hash >> 32)) }

    /// Whether `key` is `request`'s method, a space and its URL's text, byte for byte.
    private static func isRequestLine(_ key: String, of request: HTTPRequest) -> Bool {
        var key = key, method = request.method.rawValue, url = request.urlText
        return key.withUTF8 { key in
            method.withUTF8 { method in
                url.withUTF8 { url in
                    guard key.count == method.count + 1 + url.count, key[method.count] == UInt8(ascii: " ") else { return false }
                    return equal(key, from: 0, method) && equal(key, from: method.count + 1, url)
                }
            }
        }
    }

    /// Whether `whole` holds `part` from `start` on (`whole` is long enough).
    private static func equal(_ whole: UnsafeBufferPointer<UInt8>, from start: Int, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = whole.baseAddress, let other = part.baseAddress else { return part.isEmpty }
        return memcmp(base + start, other, part.count) == 0
    }

    /// Whether `key` is the key of the interaction at `position`, compared as strings are
    /// (a dictionary of keys compared them so too).
    private static func holds(_ key: String, at position: Int, interactions: [Interaction], writtenKeys: [Int32: String]) -> Bool {
        if !writtenKeys.isEmpty, let written = writtenKeys[Int32(position)] { return written == key }
        let request = interactions[position].request
        if isRequestLine(key, of: request) { return true }
        // Bytes that differ can still be equal Unicode text (a Kelvin sign for a `K`): only a
        // key with bytes past ASCII can be, and it is compared as a string.
        guard key.utf8.contains(where: { $0 >= 0x80 }) else { return false }
        return key == request.method.rawValue + " " + request.urlText
    }

    /// The first position recorded with `key`, if any.
    func first(_ key: String) -> Int? {
        let hash = key.hashValue
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            let head = Int(entry & 0xFFFF_FFFF) - 1
            if entry >> 32 == Self.tag(hash), Self.holds(key, at: head, interactions: interactions, writtenKeys: writtenKeys) {
                return head
            }
            slot = (slot + 1) & mask
        }
    }

    /// The next position after `position` with the same key, if any.
    func next(after position: Int) -> Int? {
        let next = links[position]
        return next < 0 ? nil : Int(next)
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
        var position = first(key)
        while let current = position {
            result.append(current)
            position = next(after: current)
        }
        return result
    }
}
