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

    @Test("an unreachable origin is a transport failure: exit 3")
    func transportFailure() throws {
        let server = try FileServer()
        let cassette = try recorded(server)
        let result = try CLI.run(["cassette", "verify", cassette.path, "--origin", "http://127.0.0.1:9"])
        #expect(result.status == 3)
        #expect(result.stdout.contains("#0 GET \(server.url.absoluteString)/user.json → 200  failed:"))
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
