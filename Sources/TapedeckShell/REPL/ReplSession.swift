import Foundation
import Tapedeck

/// The interactive loop: prompt, read (with heredoc continuation lines), run, print errors
/// and keep going. Ctrl-C abandons the line or cancels the request in flight; Ctrl-D exits.
///
/// ```swift
/// let repl = ReplSession(interpreter: shell, editor: LineEditor(historyURL: HistoryFile.url(environment: env)),
///                        errors: ShellOutput(handle: .standardError))
/// await repl.run()
/// ```
@MainActor
public final class ReplSession {
    private let interpreter: Interpreter
    private let editor: LineEditor
    private let errors: ShellOutput
    private var lineNumber = 0
    private var chunkStart = 1

    /// Creates a session over an interpreter, a line editor and an error stream.
    public init(interpreter: Interpreter, editor: LineEditor, errors: ShellOutput) {
        self.interpreter = interpreter
        self.editor = editor
        self.errors = errors
    }

    /// Runs until `exit` or end of input; returns the exit status (0, or 3 when a cassette
    /// could not be saved at the end).
    public func run() async -> Int32 {
        InterruptSignal.install()
        refreshCompletion()
        loop: while true {
            guard let chunk = readChunk() else { break loop }
            guard !chunk.isEmpty else { continue }
            editor.remember(chunk)
            let statements: [Statement]
            do {
                statements = try Parser.parseScript(chunk, file: SourceLocation.prompt, firstLine: chunkStart)
            } catch {
                report(.parse(error))
                continue
            }
            for statement in statements {
                guard await runInterruptibly(statement) else { break loop }
            }
            refreshCompletion()
        }
        do {
            try await interpreter.finishCassette()
        } catch {
            report(error)
            return 3
        }
        return 0
    }

    /// The prompt: mode and the base and path, shortened.
    public func prompt() -> String {
        let location = interpreter.state.location()
        let text = location.isEmpty ? "tapedeck [\(interpreter.modeDescription)]> " : "\(location) [\(interpreter.modeDescription)]> "
        guard interpreter.options.colors else { return text }
        return "\u{1}\u{1B}[36m\u{2}" + text + "\u{1}\u{1B}[0m\u{2}"
    }

    /// One command's text: a line, plus continuation lines while a heredoc is open.
    /// nil at end of input; "" when Ctrl-C abandoned it.
    private func readChunk() -> String? {
        lineNumber += 1
        chunkStart = lineNumber
        switch editor.read(prompt: prompt()) {
        case .endOfInput:
            // Ctrl-D leaves the cursor after the prompt; the shell's prompt starts a new line.
            if editor.interactive { errors.line("") }
            return nil
        case .interrupted:
            echoInterrupt()
            return ""
        case .line(let first):
            var collector = ChunkCollector(first: first)
            while !collector.isComplete {
                lineNumber += 1
                switch editor.read(prompt: "... ") {
                case .endOfInput: return collector.text
                case .interrupted:
                    echoInterrupt()
                    return ""
                case .line(let more): collector.add(more)
                }
            }
            return collector.text
        }
    }

    /// `^C` after the abandoned line, then a fresh prompt on the next line, as bash and python do.
    private func echoInterrupt() {
        if editor.interactive { errors.line("^C") }
    }

    /// Runs one statement in a task that Ctrl-C cancels; false after `exit`.
    private func runInterruptibly(_ statement: Statement) async -> Bool {
        let interpreter = self.interpreter
        let work = Task { @MainActor () -> Result<Bool, ShellError> in
            do throws(ShellError) {
                return .success(try await interpreter.execute(statement))
            } catch {
                return .failure(error)
            }
        }
        let watcher = Task { @MainActor in
            while !Task.isCancelled {
                // While a stream is shown, Ctrl-C ends the stream (LiveStream), not the command.
                if !LiveStream.active.load(ordering: .relaxed), InterruptSignal.consume() {
                    work.cancel()
                    return
                }
                try? await Task.sleep(for: .milliseconds(25))
            }
        }
        let result = await work.value
        watcher.cancel()
        switch result {
        case .success(let keepGoing):
            return keepGoing
        case .failure(let error):
            report(error)
            return true
        }
    }

    private func report(_ error: ShellError) {
        var message = error.localizedDescription
        // The terminal echoed ^C where the cursor was; the message starts on the next line.
        if case .cancelled = error, editor.interactive { message = "\n" + message }
        guard interpreter.options.colors else { return errors.line(message) }
        errors.control("\u{1B}[31m")
        errors.line(message)
        errors.control("\u{1B}[0m")
    }

    private func refreshCompletion() {
        editor.completer = Completer(for: interpreter)
    }
}
