import Foundation
import Tapedeck
import Testing

@Suite("Expired cassettes: lint --max-age, show's ages and run --on-expiry", .enabled(if: CLI.isAvailable))
struct ExpiryCommandTests {
    /// A cassette recorded from `server` whose first interaction is 40 days old.
    private func agedCassette(_ server: FileServer) throws -> (cassette: URL, script: URL) {
        try server.serve("a.json", #"{"v": 1}"#)
        let script = server.directory.appendingPathComponent("a.tape")
        try "base \(server.url.absoluteString)\nget /a.json\nexpect json $.v == 1\n".write(to: script, atomically: true, encoding: .utf8)
        let cassette = server.directory.appendingPathComponent("a.cassette.json")
        #expect(try CLI.run(["run", "--record", cassette.path, "--mode", "all", script.path]).status == 0)
        var loaded = try Cassette.load(from: cassette)
        loaded.interactions[0].recordedAt = Date().addingTimeInterval(-40 * 86_400)
        try loaded.write(to: cassette)
        return (cassette, script)
    }

    @Test("lint --max-age and TAPEDECK_MAX_AGE report expired interactions; show prints each age")
    func lintAndShow() throws {
        let server = try FileServer()
        let (cassette, _) = try agedCassette(server)
        let lint = try CLI.run(["cassette", "lint", cassette.path, "--max-age", "30d"])
        #expect(lint.status == 4)
        #expect(lint.stdout.contains("interactions[0].recordedAt: [expired] GET \(server.url.absoluteString)/a.json was recorded 40 d ago, more than 30d"))
        #expect(try CLI.run(["cassette", "lint", cassette.path, "--max-age", "60d"]).status == 0)
        #expect(try CLI.run(["cassette", "lint", cassette.path], environment: ["TAPEDECK_MAX_AGE": "1w"]).status == 4)
        let bad = try CLI.run(["cassette", "lint", cassette.path, "--max-age", "month"])
        #expect(bad.stderr.contains("--max-age 'month' is not an age"))
        let show = try CLI.run(["cassette", "show", cassette.path])
        #expect(show.stdout.contains("AGE"))
        #expect(show.stdout.contains("40 d"))
        // A date ahead of the clock is noted: it would never expire.
        var future = try Cassette.load(from: cassette)
        future.interactions[0].recordedAt = Date(timeIntervalSince1970: 4_070_908_800)
        try future.write(to: cassette)
        let noted = try CLI.run(["cassette", "lint", cassette.path, "--max-age", "30d"])
        #expect(noted.stdout.contains("note: interactions[0].recordedAt is 2099-01-01T00:00:00Z, in the future"), "\(noted.stdout)")
    }

    @Test("run --replay warns, fails or re-records by --on-expiry")
    func runPolicies() throws {
        let server = try FileServer()
        let (cassette, script) = try agedCassette(server)
        let warn = try CLI.run(["run", "--replay", cassette.path, "--max-age", "30d", script.path])
        #expect(warn.status == 0)
        #expect(warn.stderr.contains("1 of 1 interactions in \(cassette.path) are older than 30d"))
        let fail = try CLI.run(["run", "--replay", cassette.path, script.path], environment: ["TAPEDECK_MAX_AGE": "30d", "TAPEDECK_ON_EXPIRY": "fail"])
        #expect(fail.status == 3)
        #expect(fail.stderr.contains("re-record it (TAPEDECK_ON_EXPIRY=rerecord"))
        let rerecord = try CLI.run(["run", "--replay", cassette.path, "--max-age", "30d", "--on-expiry", "rerecord", script.path])
        #expect(rerecord.status == 0, "\(rerecord.stderr)")
        #expect(rerecord.stderr.contains("re-recording \(cassette.path)"))
        let fresh = try Cassette.load(from: cassette)
        #expect(Date().timeIntervalSince(fresh.interactions[0].recordedAt) < 86_400)
        #expect(try CLI.run(["cassette", "lint", cassette.path, "--max-age", "30d"]).status == 0)
    }
}
