@preconcurrency import CLibEdit
import Foundation
import Synchronization
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
    /// What the history file holds, oldest first: each entry with its credentials redacted.
    private var savedEntries: [String] = []

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
        rl_catch_signals = 0
        rl_getc_function = { _ in KeyReader.next() }
        CompletionBridge.install()
        using_history()
        stifle_history(Int32(HistoryFile.limit))
        if let historyURL, HistoryFile.prepare(historyURL) {
            historyReady = true
            _ = read_history(historyURL.path)
            savedEntries = (0..<history_length).compactMap { offset in
                history_get(history_base + offset).flatMap { $0.pointee.line.map { String(cString: $0) } }
            }
        }
    }

    /// Reads one line; `prompt` is shown only on a terminal.
    public func read(prompt: String) -> LineInput {
        guard interactive else {
            guard let line = readLine(strippingNewline: true) else { return .endOfInput }
            return .line(line)
        }
        _ = InterruptSignal.consume()
        let previousMask = InterruptSignal.markReadingThread()
        let raw = readline(prompt)
        InterruptSignal.unmarkReadingThread(restoring: previousMask)
        guard let raw else {
            return InterruptSignal.consume() ? .interrupted : .endOfInput
        }
        defer { free(raw) }
        if InterruptSignal.consume() { return .interrupted }
        return .line(String(cString: raw))
    }

    /// Adds a non-empty entry to the history and saves the file. Up and Ctrl-R recall the
    /// line as typed in this session; only the file gets it with credentials replaced
    /// (``CommandRedaction``), so what reaches disk holds no token.
    public func remember(_ entry: String) {
        guard interactive, !entry.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        add_history(entry)
        savedEntries.append(CommandRedaction.redact(entry).text)
        if savedEntries.count > HistoryFile.limit { savedEntries.removeFirst(savedEntries.count - HistoryFile.limit) }
        guard historyReady, let historyURL else { return }
        HistoryFile.write(savedEntries, to: historyURL)
    }
}

/// The C callbacks libedit calls. They cannot capture, so they read shared state: the
/// completer and the matches of the word being completed, kept in one `Mutex` so the compiler
/// (not a convention about which thread calls `readline`) keeps them safe.
enum CompletionBridge {
    private struct State {
        var completer = Completer()
        var matches: [String] = []
    }

    private static let state = Mutex(State())

    /// The completer the next Tab consults.
    static var completer: Completer {
        get { state.withLock { $0.completer } }
        set { state.withLock { $0.completer = newValue } }
    }

    /// Completes `word` (with `before`, the line up to it) and keeps the candidates for libedit's generator.
    static func complete(word: String, before: String) -> Completer.Result {
        state.withLock { state in
            var result = state.completer.complete(word: word, before: before)
            // libedit lists candidates as they are: one holding a control character (a path a
            // server sent, kept in history) would be obeyed by the terminal, so it is not offered.
            result.candidates.removeAll { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80..<0xA0).contains($0.value) } }
            state.matches = result.candidates
            return result
        }
    }

    /// The `index`th candidate of the last completion, or nil past the end.
    static func match(at index: Int) -> String? {
        state.withLock { index < $0.matches.count ? $0.matches[index] : nil }
    }

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
            let result = CompletionBridge.complete(word: word, before: before)
            rl_completion_append_character = result.appendSpace ? 32 : 0
            guard !result.candidates.isEmpty else { return nil }
            return rl_completion_matches(text) { _, state in
                CompletionBridge.match(at: Int(state)).map { strdup($0) } ?? nil
            }
        }
    }
}

/// Reads one character for libedit: a whole UTF-8 sequence decoded to its code point (libedit
/// stores what this returns as one wide character), or EOF when Ctrl-C interrupted the read,
/// so `readline()` returns at the first Ctrl-C instead of retrying the read.
enum KeyReader {
    static func next() -> Int32 {
        guard let first = readByte() else { return -1 }
        let length: Int
        switch first {
        case 0..<0x80: return Int32(first)
        case 0xC0..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF8: length = 4
        default: return 0xFFFD
        }
        var bytes = [first]
        while bytes.count < length {
            guard let byte = readByte(), byte & 0xC0 == 0x80 else { return 0xFFFD }
            bytes.append(byte)
        }
        guard let scalar = String(decoding: bytes, as: UTF8.self).unicodeScalars.first else { return 0xFFFD }
        return Int32(bitPattern: scalar.value)
    }

    private static func readByte() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count == 1 { return byte }
            if count == 0 { return nil }
            if errno == EINTR, !InterruptSignal.isPending {
                // The terminal was resized: the line is laid out again at its new width.
                if InterruptSignal.consumeResize() {
                    rl_resize_terminal()
                }
                continue
            }
            return nil
        }
    }
}
