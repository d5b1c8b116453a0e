import Foundation
import TapedeckTestSupport
import Testing

/// Each product's public symbols are checked in, one line a symbol, as `API/<product>.txt`
/// (`scripts/api-list` writes them from the symbol graphs of the modules the build made), so a
/// change to what users can call shows up in review: this test fails until the lists are
/// updated with `scripts/api-list --update` and the diff is committed with the change.
@Suite("Public API")
struct PublicAPITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let products = ["Tapedeck", "TapedeckTesting", "TapedeckCurl", "TapedeckServer"]
    static let updateCommand = "scripts/api-list --update"

    /// The build's bin folder, whose `Modules` the lists are read from: the folder of
    /// `TAPEDECK_BIN` (`make test` sets it to the built binary), else `.build/debug`.
    static func binFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let binary = environment["TAPEDECK_BIN"], !binary.isEmpty {
            return URL(fileURLWithPath: binary).deletingLastPathComponent()
        }
        return root.appendingPathComponent(".build/debug")
    }

    /// An executable named `name`: `override` when set, else the first on `PATH`, else the one
    /// beside the toolchain's `swift` (symlinks resolved), where swift-symbolgraph-extract lives.
    static func executable(_ name: String, override: String? = nil,
                           environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        let files = FileManager.default
        if let override, !override.isEmpty { return files.isExecutableFile(atPath: override) ? override : nil }
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        if let found = folders.map({ "\($0)/\(name)" }).first(where: files.isExecutableFile(atPath:)) { return found }
        guard let swift = folders.map({ "\($0)/swift" }).first(where: files.isExecutableFile(atPath:)) else { return nil }
        let beside = URL(fileURLWithPath: swift).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent(name).path
        return files.isExecutableFile(atPath: beside) ? beside : nil
    }

    /// What `scripts/api-list` reports: the lines of `new` not in `old` (`+`), then those gone (`-`).
    static func difference(old: [String], new: [String]) -> (added: [String], removed: [String]) {
        let before = Set(old), after = Set(new)
        return (new.filter { !before.contains($0) }, old.filter { !after.contains($0) })
    }

    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test("each product's public symbols match API/<product>.txt")
    func publicSymbolsMatchTheCheckedInLists() throws {
        let environment = ProcessInfo.processInfo.environment
        let extractor = try #require(
            Self.executable("swift-symbolgraph-extract", override: environment["SWIFT_SYMBOLGRAPH_EXTRACT"]),
            "swift-symbolgraph-extract was not found ($SWIFT_SYMBOLGRAPH_EXTRACT, else on PATH, else beside `swift`): it ships with the Swift toolchain; set SWIFT_SYMBOLGRAPH_EXTRACT to its path")
        let python = try #require(Self.executable("python3"), "python3 was not found on PATH: scripts/api-list needs it")
        let bin = Self.binFolder()
        let modules = bin.appendingPathComponent("Modules")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("Tapedeck.swiftmodule").path),
                     "no Tapedeck.swiftmodule in \(modules.path): build with `swift build --build-tests`, or set TAPEDECK_BIN to the built tapedeck")

        let scratch = try TestScratch.directory("public-api")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let command = [Self.root.appendingPathComponent("scripts/api-list").path, "--output-dir", scratch.path,
                       "--bin-path", bin.path, "--extractor", extractor]
        let run = try ChildProcess.run(python, command, environment: ["TMPDIR": scratch.path], timeout: 300)
        try #require(run.status == 0, """
            scripts/api-list failed (exit \(run.status)):
            \(String(decoding: run.stderr, as: UTF8.self))
            command: \(([python] + command).joined(separator: " "))
            """)

        var changed: [String] = []
        for product in Self.products {
            let checkedIn = Self.root.appendingPathComponent("API/\(product).txt")
            let old = try FileManager.default.fileExists(atPath: checkedIn.path) ? Self.lines(checkedIn) : []
            let new = try Self.lines(scratch.appendingPathComponent("\(product).txt"))
            #expect(!new.isEmpty, "scripts/api-list listed no public symbols of \(product)")
            let (added, removed) = Self.difference(old: old, new: new)
            guard !added.isEmpty || !removed.isEmpty else { continue }
            changed.append((["API/\(product).txt:"] + added.map { "+ \($0)" } + removed.map { "- \($0)" }).joined(separator: "\n"))
        }
        if !changed.isEmpty {
            Issue.record("""
                The public API changed. If that is intended, run `\(Self.updateCommand)` from the package root \
                and commit API/ with the change; if not, make the new declarations `package` or internal.
                \(changed.joined(separator: "\n"))
                """)
        }
    }

    @Test("the difference names added and removed lines, in list order")
    func differenceNamesAddedAndRemoved() {
        let (added, removed) = Self.difference(old: ["struct Tapedeck.A", "struct Tapedeck.B"],
                                               new: ["struct Tapedeck.B", "struct Tapedeck.C"])
        #expect(added == ["struct Tapedeck.C"])
        #expect(removed == ["struct Tapedeck.A"])
    }

    @Test("the modules come from TAPEDECK_BIN's folder when it is set, else .build/debug")
    func binFolderFollowsTapedeckBin() {
        #expect(Self.binFolder(environment: ["TAPEDECK_BIN": "/x/.build/debug/tapedeck"]).path == "/x/.build/debug")
        #expect(Self.binFolder(environment: [:]).path == Self.root.appendingPathComponent(".build/debug").path)
    }
}
