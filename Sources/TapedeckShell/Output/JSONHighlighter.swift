import Tapedeck

/// Pretty-prints JSON for people: four-space indent, keys in received order, optional colours
/// (keys blue, strings green, numbers cyan, `true`/`false`/`null` magenta).
public struct JSONHighlighter: Sendable {
    /// Whether ANSI colours are added.
    public var colors: Bool
    /// Spaces per level.
    public var indentWidth: Int

    /// Creates a highlighter.
    public init(colors: Bool, indentWidth: Int = 4) {
        self.colors = colors
        self.indentWidth = indentWidth
    }

    /// The formatted text of `value`, no trailing newline.
    public func render(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    private func write(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .null: out += ANSIStyle.magenta.apply("null", enabled: colors)
        case .bool(let bool): out += ANSIStyle.magenta.apply(bool ? "true" : "false", enabled: colors)
        case .number(let literal): out += ANSIStyle.cyan.apply(literal, enabled: colors)
        case .string(let string): out += ANSIStyle.green.apply(quoted(string), enabled: colors)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (position, element) in elements.enumerated() {
                out += pad(indent + 1)
                write(element, indent: indent + 1, into: &out)
                out += position == elements.count - 1 ? "\n" : ",\n"
            }
            out += pad(indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (position, member) in members.enumerated() {
                out += pad(indent + 1) + ANSIStyle.blue.apply(quoted(member.key), enabled: colors) + ": "
                write(member.value, indent: indent + 1, into: &out)
                out += position == members.count - 1 ? "\n" : ",\n"
            }
            out += pad(indent) + "}"
        }
    }

    private func pad(_ level: Int) -> String {
        String(repeating: " ", count: level * indentWidth)
    }

    /// A JSON string literal, non-ASCII kept as is.
    private func quoted(_ string: String) -> String {
        JSONWriter.write(.string(string), options: [])
    }
}
