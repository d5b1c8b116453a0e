import Foundation
import Tapedeck

extension Interpreter {
    /// Runs a script file as if its lines were here; its own includes resolve from its folder.
    func include(_ word: Word) async throws(ShellError) -> Bool {
        let path = try expand(word)
        let url = resolvePath(path)
        let chain = includeStack + [url]
        if includeStack.contains(url) || (includeStack.isEmpty && word.location.file == url.path) {
            let names = (includeStack.isEmpty ? [URL(fileURLWithPath: word.location.file)] : includeStack) + [url]
            throw .includeRecursion(chain: names.map(\.lastPathComponent), at: word.location)
        }
        let source: String
        do {
            source = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw .includeUnreadable(path: path, reason: exists ? "it is not readable UTF-8 text" : "no such file (\(url.path))", at: word.location)
        }
        let statements: [Statement]
        do {
            statements = try Parser.parseScript(source, file: Self.displayPath(url))
        } catch {
            throw .parse(error)
        }
        includeStack = chain
        defer { includeStack.removeLast() }
        return try await run(statements)
    }

    /// How messages name an included file: relative to the current directory when it is inside
    /// it (`scripts/login.tape:3:7`, as the user would type it), else absolute.
    static func displayPath(_ url: URL) -> String {
        let directory = FileManager.default.currentDirectoryPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }

    /// `record`, `replay`, `live`, `tape`.
    func switchCassette(_ command: Command, at location: SourceLocation) async throws(ShellError) {
        guard let cassettes else {
            if case .tape = command {
                output.line("mode: \(modeDescription) (cassettes are not available in this build yet)")
                return
            }
            if case .live = command {
                transport = liveTransport
                modeDescription = "live"
                return
            }
            throw .cassettesUnavailable(at: location)
        }
        do {
            switch command {
            case .record(let word, let mode):
                if let message = try cassettes.finish() { output.line(message) }
                let path = resolvePath(try expand(word)).path
                adopt(try cassettes.record(path, try mode.map(expand), liveTransport, state.base))
            case .replay(let word, let repeats):
                if let message = try cassettes.finish() { output.line(message) }
                adopt(try cassettes.replay(resolvePath(try expand(word)).path, repeats))
            case .live:
                if let message = try cassettes.finish() { output.line(message) }
                (transport, modeDescription) = (liveTransport, "live")
                state.cassettePaths = []
                recordingReason = nil
            default:
                output.line(cassettes.status())
            }
        } catch let error as ShellError {
            throw error
        } catch let error as CassetteError {
            throw .cassette(scriptRelative(error, command).localizedDescription, at: location)
        } catch {
            throw .cassette(error.localizedDescription, at: location)
        }
    }

    /// A missing cassette named by a relative path in a script: the fix (`record PATH`) goes in
    /// the script, where paths start from the script's folder, so it names the path as the
    /// script writes it, not as seen from the directory `tapedeck run` was started in.
    private func scriptRelative(_ error: CassetteError, _ command: Command) -> CassetteError {
        guard case .missing(_, let context) = error,
              baseDirectory.standardizedFileURL.path != URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        else { return error }
        let word: Word
        switch command {
        case .record(let path, _), .replay(let path, _): word = path
        default: return error
        }
        guard let written = try? expand(word), !written.hasPrefix("/"), !written.hasPrefix("~") else { return error }
        return .missing(path: written, context: context)
    }

    private func adopt(_ change: CassetteController.Switch) {
        (transport, modeDescription) = (change.transport, change.mode)
        state.cassettePaths = change.paths
        recordingReason = change.recordingReason
        if state.base == nil, let base = change.baseURL {
            state.base = base
            output.line("base \(base.absoluteString) (from the cassette)")
        }
    }

    /// Finishes any cassette in use (the REPL and runner call this before exiting).
    public func finishCassette() async throws(ShellError) {
        guard let cassettes else { return }
        do {
            if let message = try cassettes.finish() { output.line(message) }
        } catch {
            throw .cassette(error.localizedDescription, at: SourceLocation(file: "<exit>", line: 0, column: 0))
        }
    }
}
