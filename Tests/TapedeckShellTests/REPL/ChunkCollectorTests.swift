import Testing
@testable import TapedeckShell

@Suite("REPL chunk collection")
struct ChunkCollectorTests {
    /// Re-parsing the whole chunk after each line made this ~10^11 steps (8,000 lines took 22 s).
    @Test("a 200,000-line heredoc is parsed once, then each line is only compared with the delimiter")
    func longHeredoc() throws {
        var collector = ChunkCollector(first: "post /post <<END")
        #expect(!collector.isComplete)
        for number in 0..<200_000 {
            collector.add("line \(number) {{x}}")
        }
        #expect(!collector.isComplete)
        collector.add("  END  ")
        #expect(collector.isComplete)
        #expect(collector.parses == 1)
        let statements = try Parser.parseScript(collector.text, file: "<repl>")
        #expect(statements.count == 1)
    }

    @Test("a line without a heredoc, or with a parse error, is complete at once")
    func singleLines() {
        #expect(ChunkCollector(first: "get /get").isComplete)
        #expect(ChunkCollector(first: "gte /get").isComplete)
        var collector = ChunkCollector(first: "post /p <<EOF")
        collector.add("EOFX")
        #expect(!collector.isComplete)
        collector.add("EOF")
        #expect(collector.text == "post /p <<EOF\nEOFX\nEOF")
    }
}
