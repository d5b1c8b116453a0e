import Foundation
import Testing
@testable import TapedeckShell

@Suite("libedit's completion state")
struct CompletionBridgeTests {
    @Test("the completer and its matches are read and replaced from many threads at once without a race")
    func concurrentUse() async {
        let completers = (0..<8).map { index in
            var completer = Completer(directory: URL(fileURLWithPath: "/nonexistent"))
            completer.variables = ["v\(index)a", "v\(index)b"]
            return completer
        }
        await withTaskGroup(of: Void.self) { group in
            for round in 0..<400 {
                group.addTask {
                    CompletionBridge.completer = completers[round % completers.count]
                    let result = CompletionBridge.complete(word: "v", before: "print {{")
                    // Candidates come from one completer whole, never a torn mix of two.
                    let sources = Set(result.candidates.map { $0.filter(\.isNumber) })
                    #expect(result.candidates.count == 2 && sources.count == 1, "\(result.candidates)")
                    _ = CompletionBridge.match(at: round % 3)
                }
            }
        }
    }

    @Test("no shell state opts out of the compiler's checks with nonisolated(unsafe)")
    func noUnsafeState() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources").standardizedFileURL
        for target in ["TapedeckShell", "TapedeckTesting"] {
            let folder = sources.appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("nonisolated(unsafe)"), "\(file.lastPathComponent)")
            }
        }
    }
}
