import Foundation
@testable import Tapedeck
import Testing

/// A few hundred bytes of nested YAML aliases expand to hundreds of millions of nodes; every
/// YAML reader refuses such a file, naming it and the alias, before building any value.
@Suite("YAML alias bombs")
struct YAMLAliasBombTests {
    /// Nine levels of nine aliases: about 387 million nodes once expanded, under 700 bytes.
    static func bomb(root: String) -> String {
        var lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
        for level in 1...8 { lines.append("a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]") }
        return lines.joined(separator: "\n") + "\n" + root + "\n"
    }

    @Test("vcrpy and cassetter cassettes with an alias bomb are refused, naming the file and the alias")
    func cassettes() throws {
        let directory = TemporaryDirectory()
        for (name, root) in [("bomb.yaml", "interactions: *a8"), ("bomb.cassetter.yaml", "version: 1\ninteractions: *a8")] {
            let url = directory.file(name)
            let text = Self.bomb(root: root)
            #expect(text.utf8.count < 800)
            try Data(text.utf8).write(to: url)
            #expect {
                try Cassette.load(from: url)
            } throws: { error in
                let message = (error as? CassetteError)?.errorDescription ?? "\(error)"
                return message.contains("aliases expand it to more than") && message.contains("*a0 (line 2)") && message.contains(name)
            }
        }
    }

    @Test("the bound counts expanded nodes and stops at the limit; ordinary documents pass")
    func bound() throws {
        let node = try #require(try YAMLExpansion.composeBounded("a: &a [1, 2]\nb: [*a, *a]\n", file: "ok.yaml"))
        #expect(!YAMLExpansion.exceeds(node))
        #expect(YAMLExpansion.exceeds(node, limit: 5))
    }

    @Test("a large anchored body named by many aliases is bounded by the bytes it expands to, not only by nodes")
    func bytes() throws {
        // 1 MB anchored once and named 300 times: a 1 MB file that reads as 300 MB, in only 1,200 nodes.
        let body = String(repeating: "x", count: 1 << 20)
        var lines = ["interactions:", "- request: {method: GET, uri: 'http://h/0'}", "  response: {status: {code: 200}, body: {string: &big \(body)}}"]
        for index in 1..<300 { lines.append("- request: {method: GET, uri: 'http://h/\(index)'}\n  response: {status: {code: 200}, body: {string: *big}}") }
        let directory = TemporaryDirectory()
        let url = directory.file("wide.yaml")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        #expect {
            try Cassette.load(from: url)
        } throws: { error in
            let message = (error as? CassetteError)?.errorDescription ?? "\(error)"
            return message.contains("256 MB of text") && message.contains("*big")
        }
        let node = try #require(try YAMLExpansion.composeBounded("a: &a abc\nb: [*a, *a]\n", file: "ok.yaml"))
        #expect(!YAMLExpansion.exceeds(node))
        #expect(YAMLExpansion.exceeds(node, byteLimit: 8), "9 bytes of text past a limit of 8")
    }

    @Test("an alias used as a mapping key is refused before Yams hashes it (the fuzzer's hang), in block, flow and explicit form")
    func aliasKeys() throws {
        let nested = Self.bomb(root: "interactions: []").replacingOccurrences(of: "interactions: []", with: "")
        let directory = TemporaryDirectory()
        for (name, line) in [("block.yaml", "x:\n  *a8: OK\n"), ("flow.yaml", "x: [*a7, {*a8: OK}]\n"), ("explicit.yaml", "x:\n  ? *a8\n  : OK\n")] {
            let url = directory.file(name)
            try Data((nested + line).utf8).write(to: url)
            let clock = ContinuousClock(), start = clock.now
            #expect {
                try Cassette.load(from: url)
            } throws: { error in
                ((error as? CassetteError)?.errorDescription ?? "\(error)").contains("an alias is used as a mapping key")
            }
            #expect(clock.now - start < .seconds(1), "\(name) took \(clock.now - start)")
        }
        // Aliases as values, and text that only looks like one, are fine.
        #expect(YAMLExpansion.aliasKeyProblem(in: "a: &a [1]\nb: *a\nc: '*a: x'\nd: \"*b: y\"\ne: [*a, *a]\n", file: "ok.yaml") == nil)
    }
}
