/// The separators of HTTPie request items, and how an item splits at the first one.
enum ItemSeparator: String, CaseIterable, Sendable {
    case jsonFile = ":=@"
    case query = "=="
    case stringFile = "=@"
    case json = ":="
    case string = "="
    case file = "@"
    case header = ":"
    case emptyHeader = ";"

    /// Longest first, so `:=@` wins over `:=` and `:` at the same position.
    static let byPrecedence: [ItemSeparator] = [.jsonFile, .query, .stringFile, .json, .string, .file, .header, .emptyHeader]
}

/// An item split at its first unescaped separator.
struct SplitItem: Sendable {
    /// The name with backslash escapes removed.
    var name: String
    /// The name's characters with whether each was escaped (for nested JSON paths).
    var nameCharacters: [(character: Character, escaped: Bool)]
    var separator: ItemSeparator
    /// The value exactly as typed.
    var value: String
}

enum ItemSplitter {
    /// Characters a backslash escapes in an item name.
    static let escapable: Set<Character> = ["\\", "=", ":", "@", ";", "[", "]"]
    /// The characters a separator can start with.
    private static let separatorStarts: Set<Character> = ["=", ":", "@", ";"]

    /// Splits at the leftmost unescaped separator; nil when there is none.
    static func split(_ item: String) -> SplitItem? {
        let characters = Array(item)
        var name: [(character: Character, escaped: Bool)] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count, escapable.contains(characters[index + 1]) {
                name.append((characters[index + 1], true))
                index += 2
                continue
            }
            for separator in ItemSeparator.byPrecedence
            where separatorStarts.contains(character) && matches(separator, characters, at: index) {
                let value = String(characters[(index + separator.rawValue.count)...])
                return SplitItem(name: String(name.map(\.character)), nameCharacters: name,
                                 separator: separator, value: value)
            }
            name.append((character, false))
            index += 1
        }
        return nil
    }

    private static func matches(_ separator: ItemSeparator, _ characters: [Character], at index: Int) -> Bool {
        let pattern = Array(separator.rawValue)
        guard index + pattern.count <= characters.count else { return false }
        return Array(characters[index..<index + pattern.count]) == pattern
    }
}
