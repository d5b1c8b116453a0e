import Foundation

/// Where the shell writes what a user reads: injected so tests capture it and only the
/// executable decides that it is stdout.
public struct ShellOutput: Sendable {
    private let sink: @Sendable (String) -> Void

    /// Writes through `sink`; each call gets complete lines.
    public init(_ sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// Writes to a file handle the caller owns (the executable passes stdout).
    public init(handle: FileHandle) {
        self.sink = { text in handle.write(Data(text.utf8)) }
    }

    /// Discards everything.
    public static let discarding = ShellOutput { _ in }

    /// Writes `text` as it is, with no newline: for terminal control sequences (`clear`).
    public func control(_ text: String) {
        sink(text)
    }

    /// Writes `text` followed by a newline unless it already ends with one.
    public func line(_ text: String) {
        sink(text.hasSuffix("\n") ? text : text + "\n")
    }
}
