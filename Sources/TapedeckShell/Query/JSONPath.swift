import Tapedeck

/// A compiled JSONPath expression over ``JSONValue``.
///
/// Supports `$`, `.name`, `['name']`, `[n]`, `[-1]`, `.*` / `[*]`, `..name`, and filters
/// `[?(@.k == v)]` (also `!=`, `<`, `<=`, `>`, `>=`, or `[?(@.k)]` for existence).
///
/// ```swift
/// let path = try JSONPath("$.items[?(@.id == 2)].name")
/// path.evaluate(on: body)   // .array([.string("two")])
/// ```
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    /// One step of a path.
    public enum Segment: Hashable, Sendable {
        /// `.name` or `['name']`
        case child(String)
        /// `[n]`; negative counts from the end.
        case index(Int)
        /// `.*` or `[*]`
        case wildcard
        /// `..name`, or `..*` when nil.
        case descendant(String?)
        /// `[?(@.path OP literal)]`, or existence when `comparison` is nil.
        case filter(path: [Segment], comparison: FilterComparison?)
    }

    /// The comparison inside a filter.
    public struct FilterComparison: Hashable, Sendable {
        /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
        public var op: ComparisonOperator
        /// The literal compared with.
        public var value: JSONValue
    }

    /// The expression as written.
    public let text: String
    /// The steps after `$`.
    public let segments: [Segment]

    /// Compiles `text`; throws ``JSONPathError`` with the offending column.
    public init(_ text: String) throws(JSONPathError) {
        var parser = JSONPathParser(text)
        self.text = text
        self.segments = try parser.parse()
    }

    public var description: String { text }

    /// Whether the path can select at most one value (only names and indexes).
    public var isDefinite: Bool {
        segments.allSatisfy {
            switch $0 {
            case .child, .index: return true
            default: return false
            }
        }
    }

    /// Every value the path selects, in document order.
    public func select(in root: JSONValue) -> [JSONValue] {
        JSONPath.apply(segments, to: [root])
    }

    /// The value a query sees: for a definite path the one value (nil if missing); otherwise
    /// an array of every match.
    public func evaluate(on root: JSONValue) -> JSONValue? {
        let found = select(in: root)
        if isDefinite { return found.first }
        return .array(found)
    }

    static func apply(_ segments: [Segment], to start: [JSONValue]) -> [JSONValue] {
        var nodes = start
        for segment in segments {
            nodes = nodes.flatMap { step(segment, $0) }
        }
        return nodes
    }

    private static func step(_ segment: Segment, _ node: JSONValue) -> [JSONValue] {
        switch segment {
        case .child(let name):
            return node[name].map { [$0] } ?? []
        case .index(let index):
            guard case .array(let elements) = node else { return [] }
            let resolved = index < 0 ? elements.count + index : index
            return elements.indices.contains(resolved) ? [elements[resolved]] : []
        case .wildcard:
            return children(of: node)
        case .descendant(let name):
            var found: [JSONValue] = []
            collect(node, name: name, into: &found)
            return found
        case .filter(let path, let comparison):
            return children(of: node).filter { child in
                let selected = apply(path, to: [child])
                guard let comparison else { return !selected.isEmpty }
                guard let value = selected.first else { return comparison.op == .notEqual }
                return ValueComparison.compare(value, comparison.op, comparison.value)
            }
        }
    }

    private static func children(of node: JSONValue) -> [JSONValue] {
        switch node {
        case .array(let elements): return elements
        case .object(let members): return members.map(\.value)
        default: return []
        }
    }

    private static func collect(_ node: JSONValue, name: String?, into found: inout [JSONValue]) {
        switch node {
        case .object(let members):
            // A named member is the last of its duplicates, as everywhere (see JSONValue).
            let chosen = name.flatMap { name in members.lastIndex { $0.key == name } }
            for (position, member) in members.enumerated() {
                if name == nil || position == chosen { found.append(member.value) }
                collect(member.value, name: name, into: &found)
            }
        case .array(let elements):
            for element in elements {
                if name == nil { found.append(element) }
                collect(element, name: name, into: &found)
            }
        default:
            break
        }
    }
}
