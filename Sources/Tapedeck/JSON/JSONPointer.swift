/// JSON Pointer (RFC 6901) lookups and leaf listings.
extension JSONValue {
    /// The value `pointer` points at, or nil if it is malformed or leads nowhere.
    ///
    /// `""` is the whole document; `"/items/0/qty"` walks keys and array indexes; `~1` is `/`
    /// and `~0` is `~` inside a token. With duplicate keys the last one wins.
    public func value(at pointer: String) -> JSONValue? {
        guard !pointer.isEmpty else { return self }
        guard pointer.hasPrefix("/") else { return nil }
        var current = self
        for rawToken in pointer.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            guard let token = Self.unescapePointerToken(Substring(rawToken)) else { return nil }
            switch current {
            case .object:
                guard let next = current[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Self.arrayIndex(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }

    /// Escapes a key or index for use as one pointer token: `~` becomes `~0`, `/` becomes `~1`.
    package static func escapePointerToken(_ token: String) -> String {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// Every leaf with its pointer, in document order: scalars, empty arrays and empty objects.
    ///
    /// A scalar document yields one leaf at `""`. Used to print diffs like `/items/0/qty: 2 → 3`.
    package func flattenedLeaves() -> [(pointer: String, value: JSONValue)] {
        var leaves: [(pointer: String, value: JSONValue)] = []
        // An explicit stack (children pushed in reverse) keeps document order without recursion.
        var pending: [(pointer: String, value: JSONValue)] = [("", self)]
        while let (pointer, value) = pending.popLast() {
            switch value {
            case .array(let elements) where !elements.isEmpty:
                for (index, element) in elements.enumerated().reversed() {
                    pending.append((pointer + "/" + String(index), element))
                }
            case .object(let members) where !members.isEmpty:
                for member in members.reversed() {
                    pending.append((pointer + "/" + Self.escapePointerToken(member.key), member.value))
                }
            default:
                leaves.append((pointer, value))
            }
        }
        return leaves
    }

    /// Calls `body` with each leaf in document order: its value, the name of the member it is
    /// (nil for an array element or the document itself) and where it is, spelled out as a
    /// JSON Pointer only when asked (`trail.text`): a scan that finds nothing builds no pointers.
    func forEachLeaf(_ body: (_ value: JSONValue, _ name: String?, _ trail: PointerTrail) -> Void) {
        var pending: [(value: JSONValue, name: String?, trail: PointerTrail)] = [(self, nil, .root(""))]
        while let (value, name, trail) = pending.popLast() {
            switch value {
            case .array(let elements) where !elements.isEmpty:
                for (index, element) in elements.enumerated().reversed() { pending.append((element, nil, .index(trail, index))) }
            case .object(let members) where !members.isEmpty:
                for member in members.reversed() { pending.append((member.value, member.key, .key(trail, member.key))) }
            default:
                body(value, name, trail)
            }
        }
    }

    /// Undoes ``escapePointerToken(_:)``; nil for a `~` not followed by `0` or `1`.
    private static func unescapePointerToken(_ token: Substring) -> String? {
        guard token.contains("~") else { return String(token) }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: return nil
            }
        }
        return result
    }

    /// An RFC 6901 array index: `0` or digits without a leading zero.
    private static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            token == "0" || !token.hasPrefix("0")
        else { return nil }
        return Int(token)
    }
}
