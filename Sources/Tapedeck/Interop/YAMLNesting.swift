/// A linear pre-scan that refuses YAML nested deeper than ``maximumDepth`` before Yams sees it.
///
/// Yams composes (and frees) nodes recursively, so a few thousand nested `[`, `{`, `- - -` or
/// indentation levels overflow the stack and end the process. This scan does not recurse: it
/// walks the bytes once, skipping quoted scalars, comments and block scalars, and counts
/// indentation levels, compact `- ` entries and open flow brackets. The count may be higher
/// than the true depth (never lower), which only matters past the limit: a cassette nests
/// about five levels.
enum YAMLNesting {
    /// The deepest nesting accepted, as for JSON (``JSONParser/maximumDepth``) and HAR.
    static let maximumDepth = JSONParser.maximumDepth

    /// Where the nesting first goes past `limit` (1-based line and column), or nil.
    static func firstExcess(in text: String, limit: Int = maximumDepth) -> (line: Int, column: Int)? {
        firstProblem(in: text, limit: limit).flatMap { $0.aliasKey ? nil : ($0.line, $0.column) }
    }

    /// The first place the document nests past `limit`, or uses an alias as a mapping key
    /// (`*a: x`, `? *a`): Yams hashes each key to find duplicates, and hashing an alias walks
    /// everything it names, once per alias inside it, before any bound can be checked.
    static func firstProblem(in text: String, limit: Int = maximumDepth) -> (line: Int, column: Int, aliasKey: Bool)? {
        var scanner = Scanner(limit: limit)
        var copy = text
        guard let place = copy.withUTF8({ scanner.scan($0) }) else { return nil }
        return (place.line, place.column, scanner.foundAliasKey)
    }

    private enum Quote { case none, single, double }

    private struct Scanner {
        let limit: Int
        var flowDepth = 0
        var quote = Quote.none
        var indents: [Int] = []
        /// The indentation of the line that opened a `|` or `>` block scalar.
        var blockScalarParent: Int?
        /// Whether the place returned is an alias used as a mapping key (else a nesting excess).
        var foundAliasKey = false

        init(limit: Int) { self.limit = limit }

        mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int)? {
            var line = 1
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != 0x0A { end += 1 }
                if let column = scanLine(bytes, start, end) { return (line, column) }
                line += 1
                start = end + 1
            }
            return nil
        }

        /// Returns the 1-based column where the limit is passed, if it is.
        private mutating func scanLine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
            var index = start
            while index < end, bytes[index] == 0x20 { index += 1 }
            let indent = index - start
            let blank = index == end || bytes[index] == 0x23 || bytes[index] == 0x0D
            if quote != .none {
                return scanContent(bytes, start, end, from: start, base: 0)
            }
            if let parent = blockScalarParent {
                if blank || indent > parent { return nil }
                blockScalarParent = nil
            }
            if blank { return nil }
            var base = 0
            if flowDepth == 0 {
                while let last = indents.last, last > indent { indents.removeLast() }
                if indents.last != indent { indents.append(indent) }
                base = indents.count
                // Compact block entries on one line: `- - - x`, `? key`.
                while index < end, bytes[index] == 0x2D || bytes[index] == 0x3F,
                      index + 1 == end || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x0D {
                    let explicitKey = bytes[index] == 0x3F
                    base += 1
                    if base + flowDepth > limit { return index - start + 1 }
                    index += 1
                    while index < end, bytes[index] == 0x20 { index += 1 }
                    if explicitKey, index < end, bytes[index] == 0x2A {
                        foundAliasKey = true
                        return index - start + 1
                    }
                }
                if base > limit { return index - start + 1 }
            }
            return scanContent(bytes, start, end, from: index, base: base, indent: indent)
        }

        /// Scans the rest of a line: quotes, flow brackets, comments and block scalar indicators.
        private mutating func scanContent(
            _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, from first: Int, base: Int, indent: Int = 0
        ) -> Int? {
            var index = first
            var valueStart = quote == .none
            while index < end {
                let byte = bytes[index]
                switch quote {
                case .single:
                    if byte == 0x27 {
                        if index + 1 < end, bytes[index + 1] == 0x27 { index += 1 } else { quote = .none }
                    }
                    index += 1
                    continue
                case .double:
                    if byte == 0x5C { index += 2; continue }
                    if byte == 0x22 { quote = .none }
                    index += 1
                    continue
                case .none:
                    break
                }
                let previous: UInt8 = index > start ? bytes[index - 1] : 0x20
                let separated = previous == 0x20 || previous == 0x09
                switch byte {
                case 0x20, 0x09:
                    break
                case 0x23 where separated:
                    return nil
                case 0x5B where valueStart || flowDepth > 0, 0x7B where valueStart || flowDepth > 0:
                    flowDepth += 1
                    if base + flowDepth > limit { return index - start + 1 }
                    valueStart = true
                case 0x5D where flowDepth > 0, 0x7D where flowDepth > 0:
                    flowDepth -= 1
                    valueStart = false
                case 0x2C where flowDepth > 0:
                    valueStart = true
                case 0x27 where valueStart:
                    quote = .single
                case 0x22 where valueStart:
                    quote = .double
                case 0x7C where valueStart && flowDepth == 0, 0x3E where valueStart && flowDepth == 0:
                    blockScalarParent = indent
                    return nil
                case 0x3A where index + 1 == end || bytes[index + 1] == 0x20 || bytes[index + 1] == 0x0D
                    || (flowDepth > 0 && [0x2C, 0x5D, 0x7D].contains(bytes[index + 1])):
                    valueStart = true
                case 0x2A where valueStart:
                    // An alias: `*name` then `:` makes it a key.
                    let column = index - start + 1
                    index += 1
                    while index < end, ![0x20, 0x09, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x3A, 0x0D].contains(bytes[index]) { index += 1 }
                    var after = index
                    while after < end, bytes[after] == 0x20 || bytes[after] == 0x09 { after += 1 }
                    if after < end, bytes[after] == 0x3A,
                       after + 1 == end || [0x20, 0x0D, 0x2C, 0x5D, 0x7D].contains(bytes[after + 1]) {
                        foundAliasKey = true
                        return column
                    }
                    valueStart = false
                    continue
                case 0x26 where valueStart, 0x21 where valueStart:
                    // An anchor or tag before the value: skip its name, the value starts after it.
                    while index < end, bytes[index] != 0x20 { index += 1 }
                    continue
                default:
                    valueStart = false
                }
                index += 1
            }
            return nil
        }
    }
}
