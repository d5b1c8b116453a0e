import Foundation
import Testing
@testable import Tapedeck

/// kill -9 a process that records in a loop, 20 times: the cassette must always parse.
@Suite("Recording durability")
struct DurabilityTests {
    /// The bench binary built next to this test bundle (its `cassette-record-loop` case records forever).
    static let bench: URL? = {
        if let path = ProcessInfo.processInfo.environment["TAPEDECK_BENCH_BIN"] { return URL(fileURLWithPath: path) }
        let here = URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return [here.appendingPathComponent("TapedeckBench"), root.appendingPathComponent(".build/debug/TapedeckBench")]
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test("kill -9 during a recording loop, 20 times, never leaves a torn cassette",
          .enabled(if: bench != nil, "needs the TapedeckBench binary (swift build builds it)"))
    func killNine() async throws {
        let bench = try #require(Self.bench)
        let directory = TemporaryDirectory()
        let url = directory.file("loop.cassette.json")
        var counts: [Int] = []
        for round in 0..<20 {
            let process = Process()
            process.executableURL = bench
            process.arguments = ["cassette-record-loop", url.path]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            try await Task.sleep(for: .milliseconds(150 + (round * 37) % 200))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            if FileManager.default.fileExists(atPath: url.path) {
                counts.append(try Cassette.load(from: url).interactions.count)
            }
        }
        #expect(counts.count >= 15, "the loop recorded in most rounds: \(counts)")
        #expect(counts == counts.sorted(), "each round appends to what the last one saved: \(counts)")
        #expect((counts.last ?? 0) > 20)
    }
}
