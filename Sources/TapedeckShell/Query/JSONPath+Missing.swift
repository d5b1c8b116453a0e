import Tapedeck

extension JSONPath {
    /// Why a definite path (names and indexes only) selects nothing in `root`: the first step
    /// that fails, what is there instead, and the nearest member name, e.g.
    /// `$.json has no member 'ag' (members: age, name); did you mean $.json.age?`.
    /// nil for paths with wildcards, descendants or filters, and when the path does select.
    public func missingReason(in root: JSONValue) -> String? {
        guard isDefinite else { return nil }
        var node = root
        var walked = "$"
        for segment in segments {
            switch (segment, node) {
            case (.child(let name), .object(let members)):
                guard let next = node[name] else {
                    let keys = members.map(\.key)
                    let listed = keys.prefix(12).joined(separator: ", ") + (keys.count > 12 ? ", …" : "")
                    let guess = Suggestion.closest(to: name, in: keys).map { "; did you mean \(walked)\(Self.step($0))?" } ?? ""
                    return "\(walked) has no member '\(name)' (members: \(keys.isEmpty ? "none" : listed))\(guess)"
                }
                node = next
                walked += Self.step(name)
            case (.index(let index), .array(let elements)):
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else {
                    return "\(walked) has \(elements.count) element\(elements.count == 1 ? "" : "s"); [\(index)] is out of range"
                }
                node = elements[position]
                walked += "[\(index)]"
            case (.child(let name), _):
                return "\(walked) is \(Self.kind(of: node)), not an object, so it has no member '\(name)'"
            case (.index(let index), _):
                return "\(walked) is \(Self.kind(of: node)), not an array, so it has no [\(index)]"
            default:
                return nil
            }
        }
        return nil
    }

    /// `.name`, or `['name']` when the name has characters dot notation cannot carry.
    private static func step(_ name: String) -> String {
        let plain = !name.isEmpty && !name.contains(where: { ".[]'\" ()*?@$".contains($0) })
        return plain ? "." + name : "['" + name.replacingOccurrences(of: "'", with: "\\'") + "']"
    }

    private static func kind(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
