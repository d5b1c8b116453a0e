import Foundation
import Testing

/// The core's folders form layers with no cycle between them: HTTP and JSON at the bottom,
/// then the transport seam, the cassette model (which reads and writes without the recorder),
/// interop formats, the recorder's store and the replay matcher, and the sessions that open
/// cassettes on top. A type in a lower folder never names a type declared in a higher one.
@Suite("Core layering")
struct CoreLayeringTests {
    static let core = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/Tapedeck")

    /// Each folder with the top-level types its files declare and the capitalised words its
    /// code uses (comments and string literals removed).
    static func folders() throws -> (declared: [String: String], uses: [String: [String: Set<String>]]) {
        var declared: [String: String] = [:]
        var uses: [String: [String: Set<String>]] = [:]
        let files = FileManager.default.enumerator(at: core, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let declaration = try Regex(#"(?m)^(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |internal |private |fileprivate )?(?:final )?(?:struct|class|enum|protocol|typealias|actor) (\w+)"#)
        let word = try Regex(#"\b[A-Z]\w+\b"#)
        for file in files {
            let folder = file.deletingLastPathComponent().lastPathComponent
            let text = strip(try String(contentsOf: file, encoding: .utf8))
            for match in text.matches(of: declaration) {
                if let name = match.output[1].substring { declared[String(name)] = folder }
            }
            for match in text.matches(of: word) {
                uses[folder, default: [:]][String(text[match.range]), default: []].insert(file.lastPathComponent)
            }
        }
        return (declared, uses)
    }

    /// `text` without comments and string literals (multi-line ones included).
    static func strip(_ text: String) -> String {
        var out = ""
        var index = text.startIndex
        func next(_ offset: Int = 1) -> Character? {
            text.index(index, offsetBy: offset, limitedBy: text.endIndex).flatMap { $0 < text.endIndex ? text[$0] : nil }
        }
        while index < text.endIndex {
            let character = text[index]
            if character == "/", next() == "/" {
                while index < text.endIndex, text[index] != "\n" { index = text.index(after: index) }
                continue
            }
            if character == "/", next() == "*" {
                guard let end = text[index...].range(of: "*/") else { break }
                index = end.upperBound
                continue
            }
            if character == "\"" {
                let triple = next() == "\"" && next(2) == "\""
                let closing = triple ? "\"\"\"" : "\""
                var cursor = text.index(index, offsetBy: triple ? 3 : 1)
                while cursor < text.endIndex {
                    if text[cursor] == "\\" { cursor = text.index(cursor, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex; continue }
                    if text[cursor...].hasPrefix(closing) { cursor = text.index(cursor, offsetBy: closing.count); break }
                    cursor = text.index(after: cursor)
                }
                out += "\"\""
                index = cursor
                continue
            }
            out.append(character)
            index = text.index(after: index)
        }
        return out
    }

    @Test("no two folders of the core name each other's types, directly or around a loop")
    func noCycles() throws {
        let (declared, uses) = try Self.folders()
        var edges: [String: [String: Set<String>]] = [:]
        for (folder, words) in uses {
            for (name, files) in words {
                guard let owner = declared[name], owner != folder else { continue }
                edges[folder, default: [:]][owner, default: []].formUnion(files.map { "\($0) names \(name)" })
            }
        }
        // Depth-first search for a cycle; report it with the files that make each edge.
        var state: [String: Int] = [:]
        var path: [String] = []
        func visit(_ folder: String) -> [String]? {
            state[folder] = 1
            path.append(folder)
            for next in (edges[folder] ?? [:]).keys.sorted() {
                if state[next] == 1, let start = path.firstIndex(of: next) { return Array(path[start...]) + [next] }
                if state[next] == nil, let cycle = visit(next) { return cycle }
            }
            state[folder] = 2
            path.removeLast()
            return nil
        }
        for folder in edges.keys.sorted() where state[folder] == nil {
            if let cycle = visit(folder) {
                var why: [String] = []
                for (from, to) in zip(cycle, cycle.dropFirst()) {
                    let files: Set<String> = edges[from]?[to] ?? []
                    why.append("\(from) → \(to): " + files.sorted().prefix(3).joined(separator: ", "))
                }
                let text = "folders of Sources/Tapedeck depend on each other in a loop:\n" + why.joined(separator: "\n")
                Issue.record(Comment(rawValue: text))
                return
            }
        }
        #expect(edges["Cassette"]?["Recording"] == nil, "the cassette model reads and writes without the recorder")
        #expect(edges["Cassette"]?["Replay"] == nil && edges["Cassette"]?["Session"] == nil)
        #expect(!declared.isEmpty && declared["CassetteConfiguration"] == "Session")
    }
}
