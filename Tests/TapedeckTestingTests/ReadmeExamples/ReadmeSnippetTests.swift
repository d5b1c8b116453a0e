import Foundation
import Testing

/// Keeps the README's testing examples compiled: every Swift block of its TapedeckTesting section
/// must appear, line for line (leading indentation aside), in a source file of this test target,
/// which `swift build --build-tests` compiles. A README edit that is not made in the tests too
/// fails here.
@Suite("README examples of the testing API")
struct ReadmeSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../..").standardizedFileURL
    static let testsFolder = root.appendingPathComponent("Tests/TapedeckTestingTests")

    /// The Swift blocks between the section's heading and the next `## ` heading.
    static func swiftBlocks(inSectionStarting heading: String, of readme: String) throws -> [[String]] {
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "README has no '\(heading)' heading")
        var blocks: [[String]] = []
        var current: [String]?
        for line in lines[(start + 1)...] {
            if current == nil, line.hasPrefix("## ") { break }
            if current == nil, line == "```swift" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current ?? [])
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func sourceFiles() throws -> [(name: String, lines: [String])] {
        let files = try #require(FileManager.default.enumerator(at: testsFolder, includingPropertiesForKeys: nil))
        return try files.compactMap { item in
            guard let file = item as? URL, file.pathExtension == "swift" else { return nil }
            return (file.lastPathComponent, normalized(try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")))
        }
    }

    static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    @Test("every Swift example in the README's TapedeckTesting section is compiled by a test, verbatim")
    func examplesAreCompiled() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = try Self.swiftBlocks(inSectionStarting: "## Replay in your own unit tests (TapedeckTesting)", of: readme)
        // Package manifests shown for setting up a target are not test code.
        let manifestMarks = ["PackageDescription", ".testTarget(", ".package(", ".product(name:"]
        let examples = blocks.filter { block in !manifestMarks.contains { block.joined(separator: "\n").contains($0) } }
        #expect(examples.count >= 6, "found only \(examples.count) Swift examples; did the section move?")
        let sources = try Self.sourceFiles()
        for example in examples {
            let wanted = Self.normalized(example)
            #expect(sources.contains { Self.contains($0.lines, wanted) },
                    "this README example is not in any file of Tests/TapedeckTestingTests:\n\(example.joined(separator: "\n"))")
        }
    }

    @Test("the check itself finds a block that is not in the tests")
    func detectsDrift() throws {
        let readme = "## Replay in your own unit tests (TapedeckTesting)\n\n```swift\nlet x = URLSession.replaying(url, options: .default)\n```\n\n## Next\n"
        let blocks = try Self.swiftBlocks(inSectionStarting: "## Replay in your own unit tests (TapedeckTesting)", of: readme)
        #expect(blocks == [["let x = URLSession.replaying(url, options: .default)"]])
        let sources = try Self.sourceFiles()
        #expect(!sources.contains { Self.contains($0.lines, Self.normalized(blocks[0])) })
    }
}
