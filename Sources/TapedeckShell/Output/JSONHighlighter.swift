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

    /// The formatted text of `value`, no trailing newline (``JSONWriter`` with a four-space layout and colours).
    public func render(_ value: JSONValue) -> String {
        var decorations: [JSONWriter.Token: JSONWriter.Layout.Decoration] = [:]
        if colors {
            let styles: [JSONWriter.Token: ANSIStyle] = [.key: .blue, .string: .green, .number: .cyan, .literal: .magenta]
            for (token, style) in styles { decorations[token] = .init(prefix: "\u{1B}[\(style.rawValue)m", suffix: "\u{1B}[0m") }
        }
        return JSONWriter.write(value, layout: JSONWriter.Layout(indentWidth: indentWidth, decorations: decorations))
    }
}
