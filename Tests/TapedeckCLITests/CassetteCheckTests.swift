import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

@Suite("tapedeck cassette check --openapi", .enabled(if: CLI.isAvailable, "needs the built tapedeck binary (make test sets TAPEDECK_BIN)"))
struct CassetteCheckTests {
    private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("TapedeckOpenAPITests/Fixtures")
    private let spec = fixtures.appendingPathComponent("httpbin-openapi.yaml").path
    private let recorded = fixtures.appendingPathComponent("httpbin.yaml")

    @Test("a clean cassette exits 0; a drifted one exits 4 with one line per finding")
    func exitCodes() throws {
        let clean = try CLI.run(["cassette", "check", recorded.path, "--openapi", spec])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.hasSuffix("5 interactions checked against \(spec): no findings\n"))

        var cassette = try Cassette.load(from: recorded)
        cassette.interactions[3].response.status = 500
        cassette.interactions[4].request.url = try #require(URL(string: "http://httpbin.local/nowhere"))
        let directory = try TestScratch.directory("check")
        defer { try? FileManager.default.removeItem(at: directory) }
        let drifted = directory.appendingPathComponent("drifted.cassette.json")
        try cassette.write(to: drifted)
        let result = try CLI.run(["cassette", "check", drifted.path, "--openapi", spec])
        #expect(result.status == 4)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines == [
            "\(drifted.path): interactions[3] GET http://httpbin.local/status/204: undocumented status: 500 is not documented "
                + "(documented: 200, 204, 418) (schema #/paths/~1status~1{code}/get/responses)",
            "\(drifted.path): interactions[4] GET http://httpbin.local/nowhere: unknown path: no path of \(spec) matches /nowhere (schema #/paths)",
            "2 findings (5 interactions checked against \(spec))",
        ])
    }

    @Test("an unreadable spec or cassette exits 2 naming the file")
    func unreadableInput() throws {
        let missing = try CLI.run(["cassette", "check", recorded.path, "--openapi", "/nonexistent/spec.yaml"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read the OpenAPI document /nonexistent/spec.yaml"))
        let notSpec = try CLI.run(["cassette", "check", recorded.path, "--openapi", recorded.path])
        #expect(notSpec.status == 2)
        #expect(notSpec.stderr.contains("\(recorded.path) is not an OpenAPI document"))
        let noCassette = try CLI.run(["cassette", "check", "/nonexistent/c.json", "--openapi", spec])
        #expect(noCassette.status == 2)
        #expect(noCassette.stderr.contains("/nonexistent/c.json"))
    }
}
