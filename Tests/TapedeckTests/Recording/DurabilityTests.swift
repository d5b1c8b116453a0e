import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

/// Real processes recording into one cassette: killed with `kill -9` at random points, two at
/// once, and one that exits without flushing. Each waits on what the child prints, never on time.
@Suite("Recording durability across processes", .enabled(if: RecorderProcess.bench != nil,
                                                          "needs the TapedeckBench binary (swift build --build-tests builds it)"))
struct DurabilityTests {
    /// The names a cassette can have beside it at any instant: the journal, and what a killed merge leaves.
    static func allowedNames(_ url: URL) -> Set<String> {
        [url, CassetteJournal.url(for: url), CassetteMerge.temporaryURL(for: url), CassetteMerge.mergedJournalURL(for: url)]
            .reduce(into: []) { $0.insert($1.lastPathComponent) }
    }

    static func names(in directory: TemporaryDirectory) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    }

    @Test("kill -9 at 100 random points loses at most the interaction in flight, never tears the cassette, and leaves no temporary files behind")
    func killNine() throws {
        let bench = try #require(RecorderProcess.bench)
        let directory = TemporaryDirectory()
        let url = directory.file("loop.cassette.json")
        let temporary = CassetteMerge.temporaryURL(for: url)
        var random = SeededRandom(seed: 9)
        var confirmed = 0
        var inFlightKept = 0
        var killedMidWrite = 0
        for round in 0..<100 {
            let flushEvery = Int.random(in: 1...6, using: &random)
            let child = try RecorderProcess(bench, ["cassette-record-loop", url.path, String(flushEvery)])
            // Kill after a number of journaled interactions; or as a merge starts; or once the
            // merge's temporary file appears (mid-write), each a third of the rounds.
            let waitFor = Int.random(in: 1...8, using: &random)
            let duringMerge = round % 3 != 0
            var printed: [String] = []
            while printed.count < waitFor, let line = child.nextLine() {
                if line == "merge" {
                    if duringMerge { break }
                } else {
                    printed.append(line)
                }
            }
            if round % 3 == 2 {
                var spins = 0
                while !CassetteMerge.exists(temporary), spins < 1_000_000 { spins += 1 }
            }
            child.killNine()
            printed += child.linesLeftAfterExit().filter { $0 != "merge" }
            #expect(child.terminationReason == .uncaughtSignal, "round \(round): the child was killed, not finished")
            #expect(printed.first.flatMap { Int($0) } == confirmed + inFlightKept, "round \(round) started where the cassette ended")

            let left = try Self.names(in: directory)
            #expect(left.isSubset(of: Self.allowedNames(url)), "round \(round) left only known files: \(left)")
            if left.contains(temporary.lastPathComponent) { killedMidWrite += 1 }
            let cassette = try Cassette.load(from: url)
            let count = cassette.interactions.count
            let expected = confirmed + inFlightKept + printed.count
            #expect(count == expected || count == expected + 1, "round \(round): \(count) interactions, \(expected) confirmed")
            #expect(cassette.interactions.map(\.request.url.path) == (0..<count).map { "/n/\($0)" },
                    "round \(round): each interaction once, in order")
            #expect(try Self.names(in: directory) == [url.lastPathComponent], "round \(round): opening merged and cleared everything")
            confirmed += printed.count
            inFlightKept = count - confirmed
        }
        #expect(confirmed >= 100)
        #expect(killedMidWrite > 0, "some kills landed while a merge was writing the cassette")
    }

    @Test("two processes recording into one cassette at once keep every interaction")
    func twoProcesses() throws {
        let bench = try #require(RecorderProcess.bench)
        let directory = TemporaryDirectory()
        let url = directory.file("shared/two.cassette.json")
        let first = try RecorderProcess(bench, ["cassette-record-count", url.path, "300", "a"])
        let second = try RecorderProcess(bench, ["cassette-record-count", url.path, "300", "b"])
        first.send("go")
        second.send("go")
        #expect(first.exitStatus() == 0)
        #expect(second.exitStatus() == 0)

        let paths = try Cassette.load(from: url).interactions.map(\.request.url.path)
        #expect(paths.count == 600)
        #expect(Set(paths) == Set((0..<300).flatMap { ["/a/\($0)", "/b/\($0)"] }))
        #expect(paths.filter { $0.hasPrefix("/a/") } == (0..<300).map { "/a/\($0)" }, "each process's interactions stay in order")
        #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path) == [url.lastPathComponent])
    }

    @Test("a process that exits without flushing has merged its journal into the cassette")
    func flushOnExit() throws {
        let bench = try #require(RecorderProcess.bench)
        let directory = TemporaryDirectory()
        let url = directory.file("exit.cassette.json")
        let child = try RecorderProcess(bench, ["cassette-record-count", url.path, "25", "e"])
        child.send("go")
        #expect(child.exitStatus() == 0)
        #expect(try Self.names(in: directory) == [url.lastPathComponent], "no journal left")
        #expect(try Cassette.loadFile(from: url).interactions.count == 25)
    }
}
