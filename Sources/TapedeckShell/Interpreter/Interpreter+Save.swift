import Foundation
import Tapedeck

extension Interpreter {
    /// `save PATH`: the history as a runnable `.tape` script, file paths re-expressed from the
    /// script's folder and credentials replaced.
    func save(to path: String, at location: SourceLocation) throws(ShellError) {
        let url = resolvePath(path)
        let folder = url.deletingLastPathComponent()
        let redacted = state.history.map {
            CommandRedaction.redact(SavedPaths.rewrite($0, from: options.workingDirectory, to: folder))
        }
        let secrets = redacted.reduce(0) { $0 + $1.count }
        var text = "# Saved by tapedeck; run it with: tapedeck run \(path)\n"
        if secrets > 0 {
            text += "# Credentials were replaced by \(Redactor.placeholder); pass them as variables, e.g. --var token=…\n"
        }
        text += redacted.map(\.text).joined(separator: "\n") + "\n"
        do {
            try FileAccess.writeAtomically(Data(text.utf8), to: url)
        } catch {
            throw .writeFailed(path: url.path, reason: error.reason, at: location)
        }
        let note = secrets > 0 ? "; \(secrets) credential\(secrets == 1 ? "" : "s") replaced by \(Redactor.placeholder): use {{variables}} for them" : ""
        output.line("saved \(state.history.count) commands to \(url.path)\(note)")
    }

    /// `save --swift Tests/…/NameTests.swift`: writes what the session typed (without its
    /// cassette commands) as a Swift Testing file that replays the current cassette.
    func saveSwift(to path: String, at location: SourceLocation) async throws(ShellError) {
        let cassette: String?
        do { cassette = try cassettes?.flushedPath() } catch {
            throw .cassette(error.errorDescription ?? "\(error)", at: location)
        }
        guard let cassette else {
            throw .cassette("save --swift replays the session's cassette, and there is none; start one with 'record PATH' before the requests", at: location)
        }
        let url = resolvePath(path)
        var suite = url.deletingPathExtension().lastPathComponent
        if suite.hasSuffix("Tests") { suite.removeLast(5) }
        guard let first = suite.first, first.isLetter, suite.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw .invalidRequest("'\(path)' does not name a Swift type; call the file like SmokeTests.swift", at: location)
        }
        let script = Self.swiftScript(from: state.history)
        let cassetteURL = URL(fileURLWithPath: cassette, relativeTo: options.workingDirectory).standardizedFileURL
        let text: String
        do {
            text = try await SwiftTestGenerator.generate(
                script: script, named: "session", cassette: cassetteURL.path,
                cassetteFromTest: SwiftTestGenerator.relativePath(from: url.deletingLastPathComponent().standardizedFileURL, to: cassetteURL),
                suite: suite, variables: state.variables, generatedBy: "save --swift \(path)", wording: .repl)
        } catch let error as ShellError {
            throw error
        } catch {
            throw .cassette((error as? any LocalizedError)?.errorDescription ?? "\(error)", at: location)
        }
        do {
            try OutputPath.write(Data(text.utf8), to: url)
        } catch {
            throw .writeFailed(path: url.path, reason: error.reason, at: location)
        }
        output.line("saved a Swift test replaying \(cassette) to \(url.path)")
    }

    /// What a `save --swift` test replays: the history without its cassette commands, and
    /// without the requests (and their checks) sent before the cassette was opened, which it
    /// does not hold. Commands that set the session up (`base`, `header`, `set`…) stay.
    nonisolated static func swiftScript(from history: [String]) -> String {
        func word(_ line: String) -> String {
            line.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
        }
        let opened = history.lastIndex { ["record", "replay"].contains(word($0).lowercased()) } ?? -1
        let kept = history.enumerated().filter { index, line in
            let name = word(line)
            let definition = CommandRegistry.definition(named: name.lowercased())
            if definition?.saveRule == .keptExceptInSwift { return false }
            guard index < opened else { return true }
            let isRequest = definition?.helpEntry.group == .requests || name == "curl" || (definition == nil && name == name.uppercased())
            return !isRequest && !["expect", "capture"].contains(name.lowercased())
        }
        return kept.map { $0.element }.joined(separator: "\n") + "\n"
    }
}
