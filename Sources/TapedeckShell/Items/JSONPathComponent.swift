import Tapedeck

/// One step of a nested JSON field name, HTTPie style: `user[name]`, `tags[]`, `points[1][x]`.
public enum JSONPathComponent: Sendable, Hashable {
    /// An object member.
    case key(String)
    /// An array element at a position (missing earlier elements become `null`).
    case index(Int)
    /// `[]`: appended to an array.
    case append

    /// Parses a field name; a name without unescaped brackets is one key.
    static func parse(_ characters: [(character: Character, escaped: Bool)], item: String) throws(RequestItemError) -> [JSONPathComponent] {
        guard let open = characters.firstIndex(where: { $0.character == "[" && !$0.escaped }) else {
            return [.key(String(characters.map(\.character)))]
        }
        var path: [JSONPathComponent] = []
        let head = String(characters[..<open].map(\.character))
        if !head.isEmpty { path.append(.key(head)) }
        var index = open
        while index < characters.count {
            guard characters[index].character == "[", !characters[index].escaped else {
                throw .invalidJSONPath(item: item, reason: "expected '[' at character \(index + 1) of the name")
            }
            guard let close = characters[(index + 1)...].firstIndex(where: { $0.character == "]" && !$0.escaped }) else {
                throw .invalidJSONPath(item: item, reason: "the '[' at character \(index + 1) of the name is never closed")
            }
            let inside = String(characters[(index + 1)..<close].map(\.character))
            if inside.isEmpty {
                path.append(.append)
            } else if let position = Int(inside), position >= 0, characters[(index + 1)..<close].allSatisfy({ !$0.escaped }) {
                path.append(.index(position))
            } else {
                path.append(.key(inside))
            }
            index = close + 1
        }
        if case .key = path.first {} else {
            throw .invalidJSONPath(item: item, reason: "a nested name must start with a key, as in name[0]")
        }
        return path
    }
}

/// Builds a JSON object from fields with nested paths, keeping the order items were typed.
enum NestedJSONBuilder {
    static func build(_ fields: [RequestItems.DataField]) throws(RequestItemError) -> JSONValue {
        var root = JSONValue.object([])
        var flatCounts: [String: Int] = [:]
        for field in fields {
            if field.path.count == 1, case .key(let key) = field.path[0] {
                // A repeated flat name collects its values in an array, as HTTPie does.
                let count = flatCounts[key, default: 0]
                root = try addFlat(root, key: key, value: field.value, count: count, item: field.item)
                flatCounts[key] = count + 1
                continue
            }
            root = try insert(field.value, into: root, at: field.path[...], item: field.item)
        }
        return root
    }

    private static func addFlat(_ root: JSONValue, key: String, value: JSONValue, count: Int,
                                item: String) throws(RequestItemError) -> JSONValue {
        guard case .object(var members) = root else { return root }
        if count == 0, let nested = members.first(where: { $0.key == key }) {
            // A nested item (a[x]=…) built this member; a second member of the same name
            // would give a JSON object with a duplicate key.
            throw .invalidJSONPath(item: item, reason: "'\(key)' already holds the \(nested.value.typeName) an earlier "
                + "nested item built; set it whole (\(key):=…) or by parts (\(key)[…]=…), not both")
        }
        guard count > 0, let index = members.firstIndex(where: { $0.key == key }) else {
            members.append((key, value))
            return .object(members)
        }
        if count > 1, case .array(var values) = members[index].value {
            values.append(value)
            members[index].value = .array(values)
        } else {
            members[index].value = .array([members[index].value, value])
        }
        return .object(members)
    }

    private static func insert(_ value: JSONValue, into container: JSONValue?, at path: ArraySlice<JSONPathComponent>, item: String) throws(RequestItemError) -> JSONValue {
        guard let step = path.first else { return value }
        let rest = path.dropFirst()
        if case .key(let key) = step {
            var members: [(key: String, value: JSONValue)]
            switch container {
            case nil, .null?: members = []
            case .object(let existing)?: members = existing
            case let other?: throw clash(item, step: key, found: other)
            }
            if let index = members.firstIndex(where: { $0.key == key }) {
                members[index].value = try insert(value, into: members[index].value, at: rest, item: item)
            } else {
                members.append((key, try insert(value, into: nil, at: rest, item: item)))
            }
            return .object(members)
        }
        var elements: [JSONValue]
        switch container {
        case nil, .null?: elements = []
        case .array(let existing)?: elements = existing
        case let other?: throw clash(item, step: "[]", found: other)
        }
        var target = elements.count
        if case .index(let position) = step { target = position }
        while elements.count <= target { elements.append(.null) }
        let existing: JSONValue? = elements[target] == .null ? nil : elements[target]
        elements[target] = try insert(value, into: existing, at: rest, item: item)
        return .array(elements)
    }

    private static func clash(_ item: String, step: String, found: JSONValue) -> RequestItemError {
        .invalidJSONPath(item: item, reason: "cannot put '\(step)' into the \(found.typeName) an earlier item set")
    }
}
