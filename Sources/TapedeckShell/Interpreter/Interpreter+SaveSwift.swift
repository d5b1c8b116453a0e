import Foundation
import Tapedeck

extension Interpreter {
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
        let cassetteWords: Set<String> = ["record", "replay", "live", "tape"]
        let script = state.history.filter { line in
            !cassetteWords.contains(line.split(separator: " ", maxSplits: 1).first.map(String.init)?.lowercased() ?? "")
        }.joined(separator: "\n") + "\n"
        let cassetteURL = URL(fileURLWithPath: cassette, relativeTo: options.workingDirectory).standardizedFileURL
        let text: String
        do {
            text = try await SwiftTestGenerator.generate(
                script: script, named: "session", cassette: cassetteURL.path,
                cassetteFromTest: SwiftTestGenerator.relativePath(from: url.deletingLastPathComponent().standardizedFileURL, to: cassetteURL),
                suite: suite, variables: state.variables, generatedBy: "save --swift \(path)")
        } catch let error as ShellError {
            throw error
        } catch {
            throw .cassette((error as? any LocalizedError)?.errorDescription ?? "\(error)", at: location)
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            throw .writeFailed(path: url.path, reason: error.localizedDescription, at: location)
        }
        output.line("saved a Swift test replaying \(cassette) to \(url.path)")
    }
}
