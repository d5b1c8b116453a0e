import Foundation
import Testing

@Suite("Secrets on disk: form credentials, reports, converted cassettes and file modes (real binary, httpbin)",
       .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct PrivateFilesTests {
    let secrets = ["hunter2-pw", "cs-4711-val", "k3y-4711-val"]

    private func mode(_ url: URL) throws -> mode_t {
        var info = stat()
        try #require(stat(url.path, &info) == 0, "\(url.path) missing")
        return info.st_mode & 0o777
    }

    private func umaskValue() -> mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
    }

    @Test("a form login recorded by tapedeck run keeps no credential in the cassette, the reports or the converted files, all created 0600")
    func formLoginRecorded() throws {
        let folder = try Binary.temporaryDirectory("private-files")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.path, "TAPEDECK_USAGE_DIR": folder.path]
        let script = """
            post {{base}}/post --form user=ada password=hunter2-pw client_secret=cs-4711-val
            expect json $.form.user == ada
            post {{base}}/post --multipart user=ada api_key=k3y-4711-val
            expect json $.form.api_key == nope
            """
        try Data(script.utf8).write(to: folder.appendingPathComponent("login.tape"))
        let run = try Binary.run(["run", "login.tape", "--record", "c.json", "--mode", "once", "--var", "base=\(Binary.httpbin ?? "")",
                                  "--report-junit", "j.xml", "--report-tap", "t.tap"], in: folder, extraEnvironment: environment)
        #expect(run.status == 4, "\(run.stderr)")
        let converted = try Binary.run(["convert", "c.json", "c.yaml"], in: folder, extraEnvironment: environment)
        #expect(converted.status == 0, "\(converted.stderr)")
        _ = try Binary.run(["convert", "c.json", "c.har"], in: folder, extraEnvironment: environment)
        let expected = 0o600 & ~umaskValue()
        for name in ["c.json", "j.xml", "t.tap", "c.yaml", "c.har"] {
            let url = folder.appendingPathComponent(name)
            let text = try String(contentsOf: url, encoding: .utf8)
            for secret in secrets { #expect(!text.contains(secret), "\(secret) in \(name):\n\(text)") }
            #expect(try mode(url) == expected, "\(name)")
        }
        let cassette = try String(contentsOf: folder.appendingPathComponent("c.json"), encoding: .utf8)
        #expect(cassette.contains("password=%3CREDACTED%3E&client_secret=%3CREDACTED%3E"), "\(cassette)")
        let lint = try Binary.run(["cassette", "lint", "c.json"], in: folder, extraEnvironment: environment)
        #expect(lint.status == 0, "\(lint.stdout)")

        let form = "post {{base}}/post --form user=ada password=hunter2-pw client_secret=cs-4711-val\nexpect 201\n"
        try Data(form.utf8).write(to: folder.appendingPathComponent("form.tape"))
        let replay = try Binary.run(["run", "form.tape", "--replay", "c.json", "--match", "body:form", "--var", "base=\(Binary.httpbin ?? "")"],
                                    in: folder, extraEnvironment: environment)
        #expect(replay.status == 4, "the real form still matches the redacted one:\n\(replay.stderr)")
    }

    @Test("cassette lint finds credentials in a form body it did not record, and convert redacts them")
    func lintSeesForms() throws {
        let folder = try Binary.temporaryDirectory("private-lint")
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = """
            interactions:
            - request:
                body: grant_type=password&username=ada&password=hunter2-pw&client_secret=cs-4711-val
                headers:
                  Content-Type:
                  - application/x-www-form-urlencoded
                method: POST
                uri: http://api.test/oauth/token
              response:
                body:
                  string: ok
                headers: {}
                status:
                  code: 200
                  message: OK
            version: 1

            """
        try Data(yaml.utf8).write(to: folder.appendingPathComponent("vcr.yaml"))
        let lint = try Binary.run(["cassette", "lint", "vcr.yaml"], in: folder)
        #expect(lint.status == 4)
        #expect(lint.stdout.contains("interactions[0].request.body password: [secret] key-like value"), "\(lint.stdout)")
        #expect(lint.stdout.contains("interactions[0].request.body client_secret"), "\(lint.stdout)")
        #expect(!lint.stdout.contains("hunter2-pw"))
        let converted = try Binary.run(["convert", "vcr.yaml", "out.har"], in: folder)
        #expect(converted.status == 0, "\(converted.stderr)")
        let har = try String(contentsOf: folder.appendingPathComponent("out.har"), encoding: .utf8)
        #expect(!har.contains("hunter2-pw") && !har.contains("cs-4711-val"))
        #expect(try Binary.run(["cassette", "lint", "out.har"], in: folder).status == 0)
    }

    @Test("the REPL's save writes a script only its owner can read")
    func savedScriptIsPrivate() throws {
        let folder = try Binary.temporaryDirectory("private-save")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Binary.run(["repl"], in: folder, input: "base http://api.test\nheader X-Api-Key: k3y-4711-val\nsave s.tape\n",
                                     extraEnvironment: ["HOME": folder.path, "XDG_STATE_HOME": folder.path])
        #expect(session.status == 0, "\(session.stderr)")
        let url = folder.appendingPathComponent("s.tape")
        #expect(try mode(url) == 0o600 & ~umaskValue())
        #expect(!(try String(contentsOf: url, encoding: .utf8)).contains("k3y-4711-val"))
    }
}
