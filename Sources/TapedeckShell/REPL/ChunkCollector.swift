/// Collects the text of one REPL command: its first line and, while a heredoc that line opened
/// is unclosed, the body lines up to the delimiter line.
///
/// Only the first line is parsed; every later line is compared with the delimiter, so
/// collecting a heredoc of n lines costs O(n) (re-parsing the whole chunk after each line was
/// quadratic: 8,000 pasted lines took over 20 s).
///
/// ```swift
/// var collector = ChunkCollector(first: "post /post <<EOF")
/// collector.add("{\"a\": 1}")
/// collector.add("EOF")
/// collector.isComplete  // true; collector.text is the three lines
/// ```
struct ChunkCollector {
    private var lines: [String]
    /// The delimiter of the open heredoc, nil once it is closed (or when none was opened).
    private var delimiter: String?
    /// How many times text was handed to the parser (1: the first line).
    private(set) var parses = 0

    /// Starts a chunk with the line typed at the prompt.
    init(first: String) {
        lines = [first]
        do {
            parses += 1
            _ = try Parser.parseScript(first, file: SourceLocation.prompt)
        } catch {
            if case .unclosedHeredoc(let delimiter) = error.kind { self.delimiter = delimiter }
        }
    }

    /// Whether the command is whole (no heredoc open).
    var isComplete: Bool { delimiter == nil }

    /// Adds a continuation line; the delimiter line closes the heredoc.
    mutating func add(_ line: String) {
        lines.append(line)
        if line.trimmedSpaces == delimiter { delimiter = nil }
    }

    /// The command's text, lines joined with newlines.
    var text: String { lines.joined(separator: "\n") }
}
