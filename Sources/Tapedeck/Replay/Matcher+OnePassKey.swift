import Foundation

extension Matcher {
    /// ``key(for:)`` written in one pass over the URL's bytes into one buffer, for the shape
    /// nearly every request has: plain ASCII, no userinfo or IPv6 host, a query with nothing to
    /// decode (no `%` or `+`) and no ignored items. Nil for anything else, which takes
    /// ``generalKey(for:)``; both give the same key (`MatcherKeyTests`). Replay computes a key
    /// per request, and the general path's strings and arrays were most of a lookup's cost.
    func onePassKey(for request: HTTPRequest) -> String? {
        guard ignoredQueryItems.isEmpty else { return nil }
        var text = request.urlText
        return text.withUTF8 { bytes -> String? in
            var index = 0
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                guard Self.isSchemeByte(bytes[index]) else { return nil }
                index += 1
            }
            guard index > 0, index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") else {
                return nil
            }
            let schemeEnd = index
            index += 3
            let hostStart = index
            var colon: Int?
            while index < bytes.count, !StoredURL.endsAuthority(bytes[index]) {
                switch bytes[index] {
                case UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "%"), 0x80...: return nil
                case UInt8(ascii: ":"):
                    guard colon == nil else { return nil }
                    colon = index
                default: break
                }
                index += 1
            }
            let hostEnd = colon ?? index
            var port: Int?
            if let colon {
                guard index - colon - 1 >= 1, index - colon - 1 <= 5 else { return nil }
                var value = 0
                for position in (colon + 1)..<index {
                    let byte = bytes[position]
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                guard value <= 65_535 else { return nil }
                port = value
            }
            let pathStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "?"), bytes[index] != UInt8(ascii: "#") {
                // An escape in the path is compared normalized (``PercentEncoding/normalizedPath(_:)``).
                guard bytes[index] < 0x80, bytes[index] != UInt8(ascii: "%") else { return nil }
                index += 1
            }
            let pathEnd = index
            let queryStart = index < bytes.count && bytes[index] == UInt8(ascii: "?") ? index + 1 : nil
            let method = request.method.rawValue
            // Item ranges live on the stack: a query of more than 32 items takes the general path.
            return withUnsafeTemporaryAllocation(of: QueryRange.self, capacity: 32) { items -> String? in
                var count = 0
                if let queryStart {
                    var start = queryStart
                    var equals = -1
                    index = queryStart
                    while true {
                        let atEnd = index == bytes.count || bytes[index] == UInt8(ascii: "#")
                        if atEnd || bytes[index] == UInt8(ascii: "&") {
                            if index > start {
                                guard count < items.count else { return nil }
                                items[count] = QueryRange(start: start, equals: equals < 0 ? index : equals, end: index)
                                count += 1
                            }
                            if atEnd { break }
                            start = index + 1
                            equals = -1
                        } else {
                            switch bytes[index] {
                            case UInt8(ascii: "%"), UInt8(ascii: "+"), 0x80...: return nil
                            case UInt8(ascii: "="): if equals < 0 { equals = index }
                            default: break
                            }
                        }
                        index += 1
                    }
                }
                var ranges = UnsafeMutableBufferPointer(rebasing: items[0..<count])
                // Values the general path rewrites (the legacy placeholder) go to it.
                for item in ranges where item.equals < item.end && Self.isLegacyPlaceholder(bytes, item.equals + 1, item.end) { return nil }
                if count > 1 {
                    ranges.sort { left, right in
                        let name = Self.compare(bytes, left.start, left.equals, right.start, right.equals)
                        return name != 0 ? name < 0 : Self.compare(bytes, left.valueStart, left.end, right.valueStart, right.end) < 0
                    }
                    // Items equal but for a missing `=` are ordered by chance there: leave them to it.
                    for position in 1..<count {
                        let (left, right) = (ranges[position - 1], ranges[position])
                        if Self.compare(bytes, left.start, left.equals, right.start, right.equals) == 0,
                           Self.compare(bytes, left.valueStart, left.end, right.valueStart, right.end) == 0,
                           left.end - left.start != right.end - right.start {
                            return nil
                        }
                    }
                }
                let schemeIsHTTP = schemeEnd == 4 && Self.hasLowercasedPrefix(bytes, "http")
                let schemeIsHTTPS = schemeEnd == 5 && Self.hasLowercasedPrefix(bytes, "https")
                let keptPort = port.flatMap { ($0 == 80 && schemeIsHTTP) || ($0 == 443 && schemeIsHTTPS) ? nil : $0 }
                let capacity = method.utf8.count + bytes.count + 8
                return String(unsafeUninitializedCapacity: capacity) { out in
                    var cursor = 0
                    func put(_ byte: UInt8) {
                        out[cursor] = byte
                        cursor += 1
                    }
                    for byte in method.utf8 { put(byte) }
                    put(UInt8(ascii: " "))
                    for position in 0..<schemeEnd { put(Self.lowercase(bytes[position])) }
                    put(UInt8(ascii: ":"))
                    put(UInt8(ascii: "/"))
                    put(UInt8(ascii: "/"))
                    for position in hostStart..<hostEnd { put(Self.lowercase(bytes[position])) }
                    if let keptPort {
                        put(UInt8(ascii: ":"))
                        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0)
                        var value = keptPort, length = 0
                        withUnsafeMutableBytes(of: &digits) { digits in
                            repeat {
                                digits[length] = UInt8(ascii: "0") + UInt8(value % 10)
                                value /= 10
                                length += 1
                            } while value > 0
                            for position in stride(from: length - 1, through: 0, by: -1) { put(digits[position]) }
                        }
                    }
                    if pathStart == pathEnd { put(UInt8(ascii: "/")) }
                    for position in pathStart..<pathEnd { put(bytes[position]) }
                    for (position, item) in ranges.enumerated() {
                        put(UInt8(ascii: position == 0 ? "?" : "&"))
                        for offset in item.start..<item.end { put(bytes[offset]) }
                    }
                    return cursor
                }
            }
        }
    }

    /// One query item as byte ranges of the URL's text: name from `start` to `equals` (the end
    /// when it has no `=`), value from after `=` to `end`.
    struct QueryRange {
        var start: Int
        var equals: Int
        var end: Int
        var valueStart: Int { Swift.min(equals + 1, end) }
    }

    /// Whether the bytes from `start` to `end` spell the legacy query placeholder (`REDACTED`).
    private static func isLegacyPlaceholder(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start == 8 else { return false }
        var position = start
        for byte in Redactor.legacyQueryPlaceholder.utf8 {
            if bytes[position] != byte { return false }
            position += 1
        }
        return true
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."): true
        default: false
        }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// Orders two byte ranges as their ASCII text orders (negative, zero, positive).
    private static func compare(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int) -> Int {
        var (x, y) = (a, b)
        while x < aEnd, y < bEnd {
            if bytes[x] != bytes[y] { return Int(bytes[x]) - Int(bytes[y]) }
            x += 1
            y += 1
        }
        return (aEnd - x) - (bEnd - y)
    }

    /// Whether `bytes` start with `prefix` (lower-case ASCII), ignoring case.
    private static func hasLowercasedPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        for offset in 0..<prefix.utf8CodeUnitCount where lowercase(bytes[offset]) != prefix.utf8Start[offset] { return false }
        return true
    }
}
