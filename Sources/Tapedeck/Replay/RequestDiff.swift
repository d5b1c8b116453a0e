import Foundation

/// Field-level differences between a recorded request and an incoming one, as report lines
/// such as `query page: "1" → "2"` or `body /items/0/qty: 2 → 3` (recorded → sent).
struct RequestDiff {
    /// The lines, most important first.
    var lines: [String] = []
    /// How far apart the requests are: lower is nearer.
    var distance = 0
    /// Which kinds of field differ, for choosing a fix.
    var kinds: Set<Kind> = []

    enum Kind: Hashable { case method, origin, path, query, header, body }

    init(recorded: HTTPRequest, incoming: HTTPRequest, matcher: Matcher) {
        if recorded.method != incoming.method {
            add(.method, 10, "method: \(recorded.method) → \(incoming.method)")
        }
        let a = NormalizedURL(recorded.storedURL), b = NormalizedURL(incoming.storedURL)
        if a.origin != b.origin { add(.origin, 8, "origin: \(a.origin) → \(b.origin)") }
        if a.path != b.path {
            let x = a.path.split(separator: "/"), y = b.path.split(separator: "/")
            let differing = zip(x, y).filter { $0 != $1 }.count + abs(x.count - y.count)
            // Compared with their escapes normalized, shown as written.
            add(.path, 4 + differing, "path: \(Self.writtenPath(recorded)) → \(Self.writtenPath(incoming))")
        }
        diffQuery(a.query, b.query, ignored: matcher.ignoredQueryItems)
        for name in matcher.headers {
            let x = recorded.headers.values(for: name), y = incoming.headers.values(for: name)
            if !Matcher.valuesMatch(recorded: x, incoming: y) { add(.header, 1, "header \(name): \(Self.show(x)) → \(Self.show(y))") }
        }
        if matcher.body != .ignore, !matcher.bodiesMatch(recorded, incoming) {
            if let x = BodyComparison.parts(recorded), let y = BodyComparison.parts(incoming) {
                for line in BodyComparison.multipartDifferences(x, y) { add(.body, 1, line) }
            } else {
                diffBody(recorded.body ?? Data(), incoming.body ?? Data())
            }
        }
    }

    private mutating func add(_ kind: Kind, _ weight: Int, _ line: String) {
        kinds.insert(kind)
        distance += weight
        lines.append(line)
    }

    private mutating func diffQuery(_ x: [QueryItem], _ y: [QueryItem], ignored: Set<String>) {
        var names: [String] = []
        for item in x + y where !names.contains(item.name) && !ignored.contains(item.name) { names.append(item.name) }
        for name in names {
            let left = x.filter { $0.name == name }.map { $0.value ?? "" }.sorted()
            let right = y.filter { $0.name == name }.map { $0.value ?? "" }.sorted()
            if !Matcher.pairsMatch(recorded: left.map { (name, $0) }, incoming: right.map { (name, $0) }) { add(.query, 1, "query \(name): \(Self.show(left)) → \(Self.show(right))") }
        }
    }

    private mutating func diffBody(_ x: Data, _ y: Data) {
        if let a = try? JSONParser.parse(x), let b = try? JSONParser.parse(y) {
            let left = a.flattenedLeaves(), right = b.flattenedLeaves()
            let leftByPointer = Dictionary(left.map { ($0.pointer, $0.value) }, uniquingKeysWith: { _, last in last })
            let rightByPointer = Dictionary(right.map { ($0.pointer, $0.value) }, uniquingKeysWith: { _, last in last })
            var seen = Set<String>()
            var shown = 0
            for pointer in (left + right).map(\.pointer) where seen.insert(pointer).inserted {
                let l = leftByPointer[pointer], r = rightByPointer[pointer]
                if let l, let r, l.matches(incoming: r) { continue }
                shown += 1
                if shown <= 8 {
                    add(.body, 1, "body \(pointer.isEmpty ? "/" : pointer): \(Self.show(l)) → \(Self.show(r))")
                } else {
                    distance += 1
                }
            }
            if shown > 8 { lines.append("body: … and \(shown - 8) more JSON differences") }
            return
        }
        add(.body, 3, "body: " + BodyComparison.firstDifference(x, y))
    }

    /// `request`'s path as its URL holds it, escapes unchanged.
    static func writtenPath(_ request: HTTPRequest) -> String {
        let path = request.url.path(percentEncoded: true)
        return path.isEmpty ? "/" : path
    }

    static func show(_ values: [String]) -> String {
        switch values.count {
        case 0: return "(absent)"
        case 1: return "\"\(values[0])\""
        default: return "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    static func show(_ value: JSONValue?) -> String {
        guard let value else { return "(absent)" }
        let text: String = JSONWriter.write(value)
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}
