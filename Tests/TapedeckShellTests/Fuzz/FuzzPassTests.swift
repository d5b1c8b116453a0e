import Foundation
import Testing
import TapedeckFuzzing

/// The short, fixed-seed fuzz pass `make test` runs (`make fuzz` runs a million inputs per
/// target). A crash or a stack overflow ends the test process; a wrong answer fails here.
@MainActor
@Suite("Fuzz pass (short, fixed seed)")
struct FuzzPassTests {
    @Test("every target takes its hostile corpus and 1,500 seeded mutations with no crash and no wrong answer",
          arguments: FuzzTarget.all.map(\.name))
    func shortPass(_ name: String) async throws {
        let target = try #require(FuzzTarget.all.first { $0.name == name })
        let corpus = try FuzzCorpus.load(name)
        #expect(corpus.count >= 8, "the \(name) corpus lost its files")
        let report = await FuzzDriver.run(target, corpus: corpus, seed: 1, inputs: 1_500)
        #expect(report.inputs == corpus.count + 1_500)
        #expect(report.failures.isEmpty, "\(report.failures.map(\.kind.rawValue))")
        #expect(report.accepted > 0 && report.accepted < report.inputs, "\(report)")
    }

    @Test("the mutator is deterministic: one seed, one sequence of inputs")
    func deterministic() {
        let corpus = [Array("get /get q==1".utf8), Array("[1, {\"a\": 2}]".utf8)]
        var first = Mutator(seed: 7), second = Mutator(seed: 7), other = Mutator(seed: 8)
        let a = (0..<50).map { _ in first.input(corpus: corpus, dictionary: [Array("{{".utf8)]) }
        let b = (0..<50).map { _ in second.input(corpus: corpus, dictionary: [Array("{{".utf8)]) }
        let c = (0..<50).map { _ in other.input(corpus: corpus, dictionary: [Array("{{".utf8)]) }
        #expect(a == b)
        #expect(a != c)
    }
}
