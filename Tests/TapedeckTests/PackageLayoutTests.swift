import Foundation
import TapedeckTestSupport
import Testing

/// The core and the testing library are what an iOS or macOS test target links, so they must
/// build with Foundation and Yams alone: no system library (libcurl, libedit) and no NIO.
@Suite("Package layout")
struct PackageLayoutTests {
    /// One target of `swift package describe --type json`.
    private struct Target: Decodable {
        var name: String
        var type: String
        var target_dependencies: [String]?
        var product_dependencies: [String]?
    }

    private struct Description: Decodable {
        var targets: [Target]
    }

    private static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private static func describe() throws -> [String: Target] {
        // A scratch folder of its own: `swift test` holds the lock on `.build` while it runs.
        // Its TMPDIR too: SwiftPM leaves lock files and TemporaryDirectory.* folders there.
        let scratch = TestScratch.path("describe")
        let temporary = scratch.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try InteropFixtures.run("/usr/bin/env", ["swift", "package", "--package-path", packageRoot.path,
                                                              "--scratch-path", scratch.appendingPathComponent("build").path,
                                                              "describe", "--type", "json"],
                                             environment: ["TMPDIR": temporary.path], timeout: 120)
        try #require(result.status == 0, "swift package describe failed: \(result.stderr)")
        let json = result.stdout.drop { $0 != "{" }
        let description = try JSONDecoder().decode(Description.self, from: Data(json.utf8))
        return Dictionary(description.targets.map { ($0.name, $0) }) { first, _ in first }
    }

    /// Every target `name` depends on, directly or through other targets of the package.
    private static func closure(of name: String, in targets: [String: Target]) -> Set<String> {
        var seen: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            for dependency in targets[next]?.target_dependencies ?? [] where seen.insert(dependency).inserted {
                pending.append(dependency)
            }
        }
        return seen
    }

    @Test("Tapedeck and TapedeckTesting depend on no system library and on no product but Yams",
          arguments: ["Tapedeck", "TapedeckTesting"])
    func portableTargets(name: String) throws {
        let targets = try Self.describe()
        try #require(targets[name] != nil, "no target \(name) in the package description")
        let reached = Self.closure(of: name, in: targets).union([name])
        let systemLibraries = reached.filter { targets[$0]?.type == "system-target" }
        #expect(systemLibraries.isEmpty, "\(name) reaches system libraries \(systemLibraries.sorted())")
        let products = Set(reached.flatMap { targets[$0]?.product_dependencies ?? [] })
        #expect(products.isSubset(of: ["Yams"]), "\(name) reaches products \(products.sorted())")
    }

    @Test("TLS (swift-nio-ssl, swift-certificates, swift-crypto) is the server's alone: no other library target names it")
    func tlsInTheServer() throws {
        let targets = try Self.describe()
        let tls: Set<String> = ["NIOSSL", "X509", "Crypto", "SwiftASN1"]
        let server = Set(targets["TapedeckServer"]?.product_dependencies ?? [])
        #expect(server.isSuperset(of: tls), "\(server.sorted())")
        let others = targets.values.filter { $0.name != "TapedeckServer" && !tls.isDisjoint(with: $0.product_dependencies ?? []) }
        #expect(others.isEmpty, "\(others.map(\.name)) depend on TLS products")
    }

    @Test("libcurl stays in TapedeckCurl, a target the command line uses")
    func curlAtTheEdge() throws {
        let targets = try Self.describe()
        #expect(targets["TapedeckCurl"]?.target_dependencies?.contains("CCurl") == true)
        #expect(targets["tapedeck"]?.target_dependencies?.contains("TapedeckCurl") == true)
    }

    @Test("the core depends on no other target: the tooling the command line prints sits above it")
    func coreStandsAlone() throws {
        let targets = try Self.describe()
        #expect(targets["Tapedeck"]?.target_dependencies ?? [] == [])
        #expect(targets["TapedeckTooling"]?.target_dependencies == ["Tapedeck"])
    }

    @Test("no message in the core speaks of the command line: no tapedeck command, swift test line or --flag")
    func coreHasNoCommandLineWording() throws {
        let core = Self.packageRoot.appendingPathComponent("Sources/Tapedeck")
        let pattern = try Regex(#""([^"]*(tapedeck (run|cassette|repl|convert)|swift test)|([^"]*[\s(])?--[a-z])"#)
        var found: [String] = []
        let files = FileManager.default.enumerator(at: core, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                guard !code.hasPrefix("//"), line.contains(pattern) else { continue }
                found.append("\(file.lastPathComponent):\(number + 1): \(code)")
            }
        }
        #expect(files.count > 50)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    @Test("NIO lives in TapedeckServer alone, which the command line uses; nothing of the core reaches it")
    func nioAtTheEdge() throws {
        let targets = try Self.describe()
        let server = try #require(targets["TapedeckServer"], "no TapedeckServer target")
        #expect(Set(server.product_dependencies ?? []).isSuperset(of: ["NIOCore", "NIOPosix", "NIOHTTP1"]))
        #expect(targets["tapedeck"]?.target_dependencies?.contains("TapedeckServer") == true)
        let reachingNIO = targets.values.filter { ($0.product_dependencies ?? []).contains { $0.hasPrefix("NIO") } }.map(\.name)
        #expect(Set(reachingNIO) == ["TapedeckServer"], "only TapedeckServer names NIO products: \(reachingNIO.sorted())")
        for name in ["Tapedeck", "TapedeckTesting"] {
            #expect(!Self.closure(of: name, in: targets).contains("TapedeckServer"))
        }
    }
}
