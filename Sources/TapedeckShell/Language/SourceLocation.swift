/// Where something was written: a file (or `<repl>`, `<stdin>`), a 1-based line and column.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The script path, or a label such as `<repl>`.
    public var file: String
    /// The 1-based line.
    public var line: Int
    /// The 1-based column, counted in characters.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The file name of lines typed at the REPL prompt.
    public static let prompt = "<repl>"

    /// `file:line:column`, the form editors and CI logs link to.
    public var description: String { "\(file):\(line):\(column)" }

    /// This location moved `offset` characters to the right on the same line.
    func advanced(by offset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + offset)
    }
}

/// One argument as written: its text (with `{{var}}` templates still in it), whether any of
/// it was quoted, and where it starts.
public struct Word: Hashable, Sendable, CustomStringConvertible {
    /// The unquoted text; `{{name}}` templates are expanded when the command runs.
    public var text: String
    /// Whether the word was written with quotes (so `"<"` is not a redirect and `"1"` is a string).
    public var quoted: Bool
    /// Where the word starts.
    public var location: SourceLocation

    /// Creates a word.
    public init(_ text: String, quoted: Bool = false, location: SourceLocation) {
        self.text = text
        self.quoted = quoted
        self.location = location
    }

    public var description: String { text }
}
