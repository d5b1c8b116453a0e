@preconcurrency import CLibEdit
import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What reading a line produced.
public enum LineInput: Equatable, Sendable {
    /// A line, without its newline.
    case line(String)
    /// Ctrl-C: the line was abandoned.
    case interrupted
    /// Ctrl-D or the end of piped input.
    case endOfInput
}

/// Line editing on libedit's readline API: history file, Up/Down, Ctrl-R, tab completion.
/// When stdin is not a terminal it reads plain lines with no prompt.
@MainActor
public final class LineEditor {
    /// Whether stdin is a terminal.
    public let interactive: Bool
    private let historyURL: URL?
    private var historyReady = false

    /// The completer the tab key consults; the REPL refreshes it after each command.
    public var completer: Completer {
        get { CompletionBridge.completer }
        set { CompletionBridge.completer = newValue }
    }

    /// Prepares libedit: locale for UTF-8, history (bounded, mode 0600), completion.
    public init(historyURL: URL?, interactive: Bool = isatty(STDIN_FILENO) == 1) {
        self.interactive = interactive
        self.historyURL = historyURL
        guard interactive else { return }
        if setlocale(LC_CTYPE, "") == nil { setlocale(LC_CTYPE, "C.UTF-8") }
        rl_readline_name = UnsafePointer(strdup("tapedeck"))
        CompletionBridge.install()
        using_history()
        stifle_history(Int32(HistoryFile.limit))
        if let historyURL, HistoryFile.prepare(historyURL) {
            historyReady = true
            _ = read_history(historyURL.path)
        }
    }

    /// Reads one line; `prompt` is shown only on a terminal.
    public func read(prompt: String) -> LineInput {
        guard interactive else {
            guard let line = readLine(strippingNewline: true) else { return .endOfInput }
            return .line(line)
        }
        _ = InterruptSignal.consume()
        guard let raw = readline(prompt) else {
            return InterruptSignal.consume() ? .interrupted : .endOfInput
        }
        defer { free(raw) }
        if InterruptSignal.consume() { return .interrupted }
        return .line(String(cString: raw))
    }

    /// Adds a non-empty entry to the history and saves the file.
    public func remember(_ entry: String) {
        guard interactive, !entry.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        add_history(entry)
        guard historyReady, let historyURL else { return }
        _ = write_history(historyURL.path)
        chmod(historyURL.path, 0o600)
    }
}

/// The C callbacks libedit calls; they cannot capture, so they read this shared snapshot.
enum CompletionBridge {
    nonisolated(unsafe) static var completer = Completer()
    nonisolated(unsafe) static var matches: [String] = []

    static func install() {
        let breaks = strdup(" \t\n\"'<>={@")
        rl_basic_word_break_characters = UnsafePointer(breaks)
        rl_completer_word_break_characters = breaks
        rl_attempted_completion_function = { text, start, _ in
            rl_attempted_completion_over = 1
            let word = text.map { String(cString: $0) } ?? ""
            let line = rl_line_buffer.map { String(cString: $0) } ?? ""
            let utf8 = Array(line.utf8)
            let before = String(decoding: utf8.prefix(max(0, min(Int(start), utf8.count))), as: UTF8.self)
            let result = CompletionBridge.completer.complete(word: word, before: before)
            CompletionBridge.matches = result.candidates
            rl_completion_append_character = result.appendSpace ? 32 : 0
            guard !result.candidates.isEmpty else { return nil }
            return rl_completion_matches(text) { _, state in
                let index = Int(state)
                guard index < CompletionBridge.matches.count else { return nil }
                return strdup(CompletionBridge.matches[index])
            }
        }
    }
}
