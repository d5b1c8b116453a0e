import Foundation
import Testing

@Suite("The shell's comments")
struct SourceCommentsTests {
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../Sources").standardizedFileURL

    /// Every Swift file under `folder`, with its text.
    private static func swiftFiles(in folder: URL) throws -> [(url: URL, text: String)] {
        let files = try #require(FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil))
        var found: [(url: URL, text: String)] = []
        for case let file as URL in files where file.pathExtension == "swift" {
            found.append((url: file, text: try String(contentsOf: file, encoding: .utf8)))
        }
        return found
    }

    /// The text after `//` on each line (doc comments included).
    private static func comments(_ text: String) -> [Substring] {
        text.split(separator: "\n").compactMap { line in line.range(of: "//").map { line[$0.upperBound...] } }
    }

    @Test("every ``symbol`` a shell comment links to is declared, and every Swift file one names exists")
    func linksResolve() throws {
        let everything = try Self.swiftFiles(in: Self.sources)
        let names = Set(everything.map { $0.url.lastPathComponent })
        let declaration = try Regex(#"\b(?:struct|enum|class|protocol|typealias|actor|case|func|var|let)\s+`?([A-Za-z_][A-Za-z0-9_]*)"#)
        let listedCase = try Regex(#"^\s*(?:public\s+|package\s+)?case\s+(.+)$"#)
        var declared: Set<String> = []
        for (_, text) in everything {
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { declared.insert(String(name)) }
            }
            for line in text.split(separator: "\n") {
                guard let match = line.firstMatch(of: listedCase), let list = match.output[1].substring else { continue }
                for item in list.split(separator: ",") {
                    declared.insert(String(item.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
                }
            }
        }
        let link = try Regex(#"``([^`]+)``"#)
        let fileName = try Regex(#"[A-Za-z0-9_+./…-]+\.swift\b"#)
        for (url, text) in try Self.swiftFiles(in: Self.sources.appendingPathComponent("TapedeckShell")) {
            for comment in Self.comments(text) {
                for match in comment.matches(of: link) {
                    guard let target = match.output[1].substring else { continue }
                    for part in target.split(separator: "/") {
                        let symbol = String(part.prefix { $0 != "(" })
                        #expect(declared.contains(symbol), "\(url.lastPathComponent): ``\(target)`` names no declaration '\(symbol)'")
                    }
                }
                for match in comment.matches(of: fileName) {
                    let path = String(comment[match.range])
                    // `Tests/…/NameTests.swift` stands for a file the user names.
                    guard !path.contains("…") else { continue }
                    let file = String(path.split(separator: "/").last ?? Substring(path))
                    #expect(names.contains(file), "\(url.lastPathComponent): a comment names \(path), which does not exist")
                }
            }
        }
    }
}
