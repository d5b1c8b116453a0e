import Foundation
import Tapedeck
import Testing

/// A cassette of 100,000 interactions through the real binary: `serve` answers from all of
/// it, `run --replay` replays from it, and `cassette show` and `cassette lint` read the same
/// interactions. (How fast is `make bench`'s business, Benchmarks/scale.sh; this is what.)
@Suite("A 100,000-interaction cassette", .enabled(if: Proc.tapedeck != nil))
struct LargeCassetteTests {
    static let count = 100_000

    /// `GET http://bench.local/items/I` answering `{"i":I}`, with one duplicate at the end
    /// (the last interaction repeated) for lint to note.
    static func write(to directory: URL) throws -> URL {
        var interactions = (0..<count).map { index in
            Interaction(request: HTTPRequest(url: URL(string: "http://bench.local/items/\(index)?page=\(index % 10)")!),
                        response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{\"i\":\(index)}".utf8)),
                        recordedAt: Date(timeIntervalSince1970: 1_790_000_000))
        }
        interactions.append(interactions[count - 1])
        let file = directory.appendingPathComponent("big.cassette.json")
        try Cassette(interactions: interactions, metadata: [Cassette.MetadataKey.baseURL: "http://bench.local"]).write(to: file)
        return file
    }

    @Test("serve answers the first, a middle and the last of 100,000 interactions; run --replay replays a spread of them; show and lint read all of them")
    func servedReplayedAndRead() async throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let file = try Self.write(to: directory)
        let environment = ["TAPEDECK_RECORD_MODE": "", "TAPEDECK_USAGE_DIR": directory.appendingPathComponent("usage").path]
        let binary = try #require(Proc.tapedeck)

        let serve = try await ServerProcess(["serve", file.path], environment: environment)
        for index in [0, Self.count / 2, Self.count - 1] {
            let result = try await Proc.run(Proc.curl, ["-s", "--fail", serve.url.absoluteString + "/items/\(index)?page=\(index % 10)"])
            #expect(result.text == "{\"i\":\(index)}", "serve, interaction \(index): \(result.stderr)")
        }
        let miss = try await Proc.run(Proc.curl, ["-s", "-o", "/dev/null", "-w", "%{http_code}", serve.url.absoluteString + "/items/\(Self.count)?page=0"])
        #expect(miss.text == "404", "an interaction the cassette lacks is still a miss")
        _ = await serve.stop()

        let picked = stride(from: 7, to: Self.count, by: 997).map { $0 }
        let script = directory.appendingPathComponent("spread.tape")
        try picked.map { "get http://bench.local/items/\($0)?page=\($0 % 10)\nexpect json $.i == \($0)\n" }.joined()
            .write(to: script, atomically: true, encoding: .utf8)
        let replayed = try await Proc.run(binary, ["run", script.path, "--replay", file.path], environment: environment)
        #expect(replayed.status == 0, "\(replayed.text)\n\(replayed.stderr)")
        #expect(replayed.text.contains("1 passed, 0 failed · \(picked.count) requests"), "\(replayed.text)\n\(replayed.stderr)")
        #expect(replayed.stderr.contains("\(picked.count) played"), "every step answered from the cassette: \(replayed.stderr)")

        let shown = try await Proc.run(binary, ["cassette", "show", file.path], environment: environment)
        #expect(shown.status == 0)
        #expect(shown.text.split(separator: "\n").first?.contains("\(Self.count + 1) interactions") == true, "show's header counts every one")
        #expect(shown.text.split(separator: "\n").count == Self.count + 3, "a header, the column names and a row each")
        let linted = try await Proc.run(binary, ["cassette", "lint", file.path], environment: environment)
        #expect(linted.status == 0, "\(linted.text)\n\(linted.stderr)")
        let lintText = linted.text + linted.stderr
        #expect(lintText.contains("interactions[\(Self.count)] repeats interactions[\(Self.count - 1)] exactly"),
                "lint reads the same interactions show lists, down to the last: \(lintText.suffix(400))")
    }
}
