import Foundation
import Tapedeck

extension Interpreter {
    /// `record PATH [--mode M]`: finishes any cassette in use, then records into PATH.
    func startRecording(_ word: Word, mode: Word?, at location: SourceLocation) throws(ShellError) {
        let cassettes = try controller(at: location)
        try switchCassette(naming: word, at: location) {
            if let message = try cassettes.finish() { output.line(message) }
            let path = resolvePath(try expand(word)).path
            adopt(try cassettes.record(path, try mode.map(expand), liveTransport, state.base))
        }
    }

    /// `replay PATH [--repeat]`: finishes any cassette in use, then replays PATH.
    func startReplaying(_ word: Word, repeats: Bool, at location: SourceLocation) throws(ShellError) {
        let cassettes = try controller(at: location)
        try switchCassette(naming: word, at: location) {
            if let message = try cassettes.finish() { output.line(message) }
            adopt(try cassettes.replay(resolvePath(try expand(word)).path, repeats))
        }
    }

    /// `live`: finishes any cassette in use; requests go to the network again.
    func goLive(at location: SourceLocation) throws(ShellError) {
        guard let cassettes else {
            transport = liveTransport
            modeDescription = "live"
            return
        }
        try switchCassette(naming: nil, at: location) {
            if let message = try cassettes.finish() { output.line(message) }
            (transport, modeDescription) = (liveTransport, "live")
            state.cassettePaths = []
            recordingReason = nil
        }
    }

    /// `tape`: where requests go and the cassette's state.
    func describeTape() {
        guard let cassettes else {
            output.line("mode: \(modeDescription) (cassettes are not available in this build yet)")
            return
        }
        output.line(cassettes.status())
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

    /// The cassette controller; `record` and `replay` fail without one.
    private func controller(at location: SourceLocation) throws(ShellError) -> CassetteController {
        guard let cassettes else { throw .cassettesUnavailable(at: location) }
        return cassettes
    }

    /// Runs a cassette switch, reporting a cassette's failure at `location` (a missing one
    /// named by `word` as the script writes it).
    private func switchCassette(naming word: Word?, at location: SourceLocation, _ body: () throws -> Void) throws(ShellError) {
        do {
            try body()
        } catch let error as ShellError {
            throw error
        } catch let error as CassetteError {
            throw .cassette(scriptRelative(error, word).localizedDescription, at: location)
        } catch {
            throw .cassette(error.localizedDescription, at: location)
        }
    }

    /// A missing cassette named by a relative path in a script: the fix (`record PATH`) goes in
    /// the script, where paths start from the script's folder, so it names the path as the
    /// script writes it, not as seen from the directory `tapedeck run` was started in.
    private func scriptRelative(_ error: CassetteError, _ word: Word?) -> CassetteError {
        guard case .missing(_, let context) = error,
              baseDirectory.standardizedFileURL.path != URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path,
              let word
        else { return error }
        guard let written = try? expand(word), !written.hasPrefix("/"), !written.hasPrefix("~") else { return error }
        return .missing(path: written, context: context)
    }

    /// Sends requests where a new cassette says, taking its base URL when none is set.
    private func adopt(_ change: CassetteController.Switch) {
        (transport, modeDescription) = (change.transport, change.mode)
        state.cassettePaths = change.paths
        recordingReason = change.recordingReason
        for warning in change.warnings { (options.warnings ?? output).line("warning: " + warning) }
        if state.base == nil, let base = change.baseURL {
            state.base = base
            output.line("base \(base.absoluteString) (from the cassette)")
        }
    }
}
