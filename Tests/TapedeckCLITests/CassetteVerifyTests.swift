import Foundation
import Tapedeck
import Testing

@Suite("tapedeck cassette verify against a server whose answers the test changes", .enabled(if: CLI.isAvailable))
struct CassetteVerifyTests {
    /// Records /user.json, /list.json and /page.txt from a fresh server into a cassette.
    private func recorded(_ server: FileServer) throws -> URL {
        try server.serve("user.json", #"{"id": 7, "name": "Ada", "email": "ada@example.com", "age": 36}"#)
        try server.serve("list.json", #"{"items": [{"id": 1, "tags": ["a"]}, {"id": 2, "tags": ["b"]}], "next": null}"#)
        try server.serve("page.txt", "hello")
        let script = server.directory.appendingPathComponent("record.tape")
        try "base \(server.url.absoluteString)\nget /user.json\nexpect 200\nget /list.json\nget /page.txt\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let cassette = server.directory.appendingPathComponent("api.cassette.json")
        let result = try CLI.run(["run", "--record", cassette.path, "--mode", "all", script.path])
        #expect(result.status == 0, "\(result.stderr)")
        return cassette
    }

    @Test("an unchanged API exits 0 with a line per interaction")
    func unchanged() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        let result = try CLI.run(["cassette", "verify", cassette.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("#0 GET \(server.url.absoluteString)/user.json → 200  unchanged"))
        #expect(result.stdout.contains("#2 GET \(server.url.absoluteString)/page.txt → 200  unchanged"))
        #expect(result.stdout.contains("3 unchanged, 0 drifted, 0 failed"))
    }

    @Test("added, removed and retyped members are found at their JSON Pointers and exit 4")
    func drift() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        try server.serve("user.json", #"{"id": 7, "name": "Ada", "age": "36", "phone": "555"}"#)
        try server.serve("list.json", #"{"items": [{"id": 1}, {"id": 2}], "next": null}"#)
        let junit = server.directory.appendingPathComponent("verify.xml")
        let result = try CLI.run(["cassette", "verify", cassette.path, "--report-junit", junit.path])
        #expect(result.status == 4, "\(result.stdout)\(result.stderr)")
        let out = result.stdout
        #expect(out.contains("/user.json → 200  drifted (3 changes)"))
        #expect(out.contains("body /email: string → (absent) [removed]"))
        #expect(out.contains("body /age: number → string [retyped]"))
        #expect(out.contains("body /phone: (absent) → string [added]"))
        #expect(out.contains("body /items/0/tags: array → (absent) [removed] (and 1 more element)"))
        #expect(out.contains("/page.txt → 200  unchanged"))
        #expect(!out.contains("body /name"))
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains(#"failures="2""#))
        #expect(xml.contains("body /age: number → string [retyped]"))
    }

    @Test("--ignore skips a volatile pointer and --compare values sees changed values")
    func ignoreAndValues() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        try server.serve("user.json", #"{"id": 7, "name": "Grace", "email": "ada@example.com"}"#)
        let ignoring = try CLI.run(["cassette", "verify", cassette.path, "--ignore", "/age"])
        #expect(ignoring.status == 0, "\(ignoring.stdout)")
        let values = try CLI.run(["cassette", "verify", cassette.path, "--ignore", "/age", "--compare", "status,values"])
        #expect(values.status == 4)
        #expect(values.stdout.contains(#"body /name: "Ada" → "Grace""#))
        try server.serve("page.txt", String(repeating: "x", count: 5000))
        let sized = try CLI.run(["cassette", "verify", cassette.path, "--ignore", "/age"])
        #expect(sized.stdout.contains("body size: under 1 KB → 1 KB to 1 MB"))
    }

    @Test("--update re-records only the drifted interaction; every other byte stays")
    func update() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        let before = try Cassette.load(from: cassette)
        let beforeBytes = try Data(contentsOf: cassette)
        try server.serve("user.json", #"{"id": 7, "name": "Ada", "age": "36"}"#)
        let result = try CLI.run(["cassette", "verify", cassette.path, "--update"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("updated 1 drifted interaction in \(cassette.path): #0"))
        let after = try Cassette.load(from: cassette)
        let afterBytes = try Data(contentsOf: cassette)
        #expect(afterBytes != beforeBytes)
        #expect(after.interactions.count == 3)
        #expect(after.interactions[0].request == before.interactions[0].request)
        #expect(String(decoding: after.interactions[0].response.body, as: UTF8.self).contains(#""age": "36""#))
        // Splicing the new interaction into the old cassette gives the new file byte for byte.
        var expected = before
        expected.interactions[0] = after.interactions[0]
        #expect(expected.encoded() == afterBytes)
        #expect(try CLI.run(["cassette", "verify", cassette.path]).status == 0)
    }

    @Test("credentials go only to the recorded host: --origin elsewhere sends nothing until --allow-credentials-to names it; the report names the host contacted")
    func credentialsStayWithTheirHost() throws {
        let recordedServer = try FileServer(), other = try FileServer()
        for server in [recordedServer, other] { try server.serve("me.json", #"{"id": 7}"#) }
        let script = recordedServer.directory.appendingPathComponent("me.tape")
        try "base \(recordedServer.url.absoluteString)\nget /me.json Authorization:'Bearer tok_live_4711'\nexpect 200\n"
            .write(to: script, atomically: true, encoding: .utf8)
        let cassette = recordedServer.directory.appendingPathComponent("me.cassette.json")
        let recording = try CLI.run(["run", "--record", cassette.path, "--mode", "all", script.path])
        try #require(recording.status == 0, "\(recording.stderr)")

        let missing = try CLI.run(["cassette", "verify", cassette.path])
        #expect(missing.stdout.contains("give the real value with --var authorization=VALUE (or the environment variable TAPEDECK_AUTHORIZATION)"),
                "\(missing.stdout)")
        let home = try CLI.run(["cassette", "verify", cassette.path, "--var", "authorization=Bearer tok_live_4711"])
        #expect(home.status == 0, "\(home.stdout)\(home.stderr)")
        #expect(recordedServer.requests.last == "/me.json Bearer tok_live_4711")

        let otherHost = "127.0.0.1:\(other.url.port ?? 0)"
        let elsewhere = try CLI.run(["cassette", "verify", cassette.path, "--origin", other.url.absoluteString,
                                     "--var", "authorization=Bearer tok_live_4711"])
        #expect(elsewhere.status == 3, "\(elsewhere.stdout)")
        #expect(elsewhere.stdout.contains("#0 GET \(other.url.absoluteString)/me.json → 200  failed: interactions[0].request header Authorization "
            + "would carry a credential to \(otherHost), but it was recorded against 127.0.0.1:\(recordedServer.url.port ?? 0); nothing was sent. "
            + "If \(otherHost) should receive it, add --allow-credentials-to \(otherHost)"), "\(elsewhere.stdout)")
        #expect(other.requests.isEmpty, "the other host received \(other.requests)")

        let allowed = try CLI.run(["cassette", "verify", cassette.path, "--origin", other.url.absoluteString,
                                   "--var", "authorization=Bearer tok_live_4711", "--allow-credentials-to", otherHost])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        #expect(allowed.stdout.contains("#0 GET \(other.url.absoluteString)/me.json → 200  unchanged"), "the report names the host contacted")
        #expect(other.requests == ["/me.json Bearer tok_live_4711"])

        // Pinned: a cassette edited to name another host gets nothing, even at its "recorded" origin.
        let edited = try String(contentsOf: cassette, encoding: .utf8)
            .replacingOccurrences(of: recordedServer.url.absoluteString, with: other.url.absoluteString)
        try edited.write(to: cassette, atomically: true, encoding: .utf8)
        let pinned = try CLI.run(["cassette", "verify", cassette.path, "--var", "authorization=Bearer tok_live_4711",
                                  "--allow-credentials-to", "127.0.0.1:\(recordedServer.url.port ?? 0)"])
        #expect(pinned.status == 3)
        #expect(pinned.stdout.contains("which --allow-credentials-to does not name"), "\(pinned.stdout)")
        #expect(other.requests.count == 1)
    }

    @Test("an unreachable origin is a transport failure: exit 3")
    func transportFailure() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        let result = try CLI.run(["cassette", "verify", cassette.path, "--origin", "http://127.0.0.1:9"])
        #expect(result.status == 3)
        #expect(result.stdout.contains("#0 GET http://127.0.0.1:9/user.json → 200  failed: cannot connect to 127.0.0.1:9"),
                "the report names the host contacted: \(result.stdout)")
    }

    @Test("unsafe methods are skipped unless --methods names them; bad options are named")
    func methodsAndBadInput() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        let getOnly = try CLI.run(["cassette", "verify", cassette.path, "--methods", "HEAD"])
        #expect(getOnly.stdout.contains("skipped (GET is not among the methods verified)"))
        let bad = try CLI.run(["cassette", "verify", cassette.path, "--compare", "status,bodies"])
        #expect(bad.status == 64 || bad.status == 1)
        #expect(bad.stderr.contains("--compare: 'bodies' is not something verify compares"))
    }
}
