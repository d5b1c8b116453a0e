import Foundation

/// Where the shell writes what a user reads: injected so tests capture it and only the
/// executable decides that it is stdout.
public struct ShellOutput: Sendable {
    private let sink: @Sendable (String) -> Void
    private let escapesControls: Bool

    /// Writes through `sink`; each call gets complete lines. With `escapingControls`, control
    /// characters in ``line(_:)`` are shown as `\xNN` (``TerminalText/visible(_:keepLineBreaks:)``).
    public init(escapingControls: Bool = false, _ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
        escapesControls = escapingControls
    }

    /// Writes to a file handle the caller owns (the executable passes stdout or stderr). On a
    /// terminal, control characters in lines (from a server's text quoted in an error) are
    /// shown, not obeyed; piped output stays byte-exact.
    public init(handle: FileHandle) {
        self.init(escapingControls: isatty(handle.fileDescriptor) == 1) { text in handle.write(Data(text.utf8)) }
    }

    /// Discards everything.
    public static let discarding = ShellOutput { _ in }

    /// Writes `text` as it is, with no newline: for terminal control sequences (`clear`).
    public func control(_ text: String) {
        sink(text)
    }

    /// Writes `text` followed by a newline unless it already ends with one.
    public func line(_ text: String) {
        let shown = escapesControls ? TerminalText.visible(text) : text
        sink(shown.hasSuffix("\n") ? shown : shown + "\n")
    }
}
