import Foundation
import Tapedeck
import TapedeckOpenAPI
import TapedeckTestSupport
import Testing
@testable import TapedeckShell

/// A small users API: literal and templated segments, a server with a base path, parameters
/// of each place and a JSON request body.
enum UsersSpec {
    static let text = """
        openapi: 3.0.3
        info: {title: Users, version: "1"}
        servers: [{url: "http://api.test/v1"}]
        paths:
          /health:
            get: {responses: {"200": {description: ok}}}
          /users:
            get:
              parameters: [{name: page, in: query, schema: {type: integer}}]
              responses: {"200": {description: ok}}
            post:
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      type: object
                      required: [name]
                      properties: {name: {type: string}, age: {type: integer}, admin: {type: boolean}}
              responses: {"201": {description: created}}
          /users/me:
            get: {responses: {"200": {description: ok}}}
          /users/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
                - {name: X-Trace, in: header, schema: {type: string}}
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, name]
                        properties: {id: {type: integer}, name: {type: string}}
            delete: {responses: {"204": {description: gone}}}
        """

    /// A folder holding `users.yaml`; remove it when done.
    static func folder() throws -> URL {
        let folder = try TestScratch.directory("tapedeck-openapi")
        try Data(text.utf8).write(to: folder.appendingPathComponent("users.yaml"))
        return folder
    }

    static func guide() throws -> OpenAPIGuide {
        OpenAPIGuide(spec: try OpenAPISpec.parse(text, path: "users.yaml"))
    }
}

@MainActor
@Suite("openapi at the prompt: ls and cd over the document's paths, warnings for responses that break it")
struct OpenAPIPromptTests {
    private func shell(in folder: URL, answer: @escaping @Sendable (HTTPRequest) -> HTTPResponse = { _ in HTTPResponse(status: 200) })
        -> (Interpreter, Captured) {
        let captured = Captured()
        let shell = Interpreter(transport: StubTransport { answer($0) }, output: captured.output,
                                options: .init(environment: [:], workingDirectory: folder, echoResponses: true))
        return (shell, captured)
    }

    @Test("openapi loads the document and its server; ls lists segments with their methods as HttpRepl does; cd warns outside it")
    func navigation() async throws {
        let folder = try UsersSpec.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, captured) = shell(in: folder)
        try await shell.run(source: "openapi users.yaml\nls", file: SourceLocation.prompt)
        #expect(captured.value == """
            users.yaml: OpenAPI 3.0.3, 4 paths, 6 operations; base set to its server http://api.test/v1
            .        []
            health   [GET]
            users/   [GET|POST]

            """)
        #expect(shell.state.base?.absoluteString == "http://api.test/v1")
        let before = captured.value.count
        try await shell.run(source: "cd users\nls\nls /users/7", file: SourceLocation.prompt)
        let after = String(captured.value.dropFirst(before))
        #expect(after == """
            .      [GET|POST]
            ..     []
            me     [GET]
            {id}   [GET|DELETE]
            .    [GET|DELETE]
            ..   []

            """)
        try await shell.run(source: "cd nowhere", file: SourceLocation.prompt)
        #expect(!captured.value.contains("warning"), "nowhere can be an {id}")
        try await shell.run(source: "cd /nowhere", file: SourceLocation.prompt)
        #expect(captured.value.hasSuffix("warning: /nowhere is not a path of users.yaml; 'ls' lists the documented ones\n"))
        do {
            try await shell.run(source: "ls", file: SourceLocation.prompt)
            Issue.record("ls of an undocumented path did not fail")
        } catch {
            #expect(error.localizedDescription.contains("/nowhere is not a path of users.yaml"))
        }
        #expect(shell.state.history.contains("openapi users.yaml"), "save keeps the openapi line")
    }

    @Test("ls without a document, a missing file and a file that is not OpenAPI are errors naming the fix and the place")
    func errors() async throws {
        let folder = try UsersSpec.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("just: yaml\n".utf8).write(to: folder.appendingPathComponent("plain.yaml"))
        let (shell, captured) = shell(in: folder)
        for (line, expected) in [("ls", "<repl>:1:1: ls lists the paths of an OpenAPI document, and none is loaded; load one with 'openapi FILE'"),
                                 ("openapi nope.yaml", "<repl>:1:9: cannot read the OpenAPI document nope.yaml: no such file"),
                                 ("openapi plain.yaml", "<repl>:1:9: plain.yaml is not an OpenAPI document")] {
            do {
                try await shell.run(source: line, file: SourceLocation.prompt)
                Issue.record("\(line) did not fail")
            } catch {
                #expect(error.localizedDescription.hasPrefix(expected), "\(error.localizedDescription)")
            }
        }
        #expect(shell.openAPI == nil)
        try await shell.run(source: "openapi users.yaml\nopenapi off\nopenapi", file: SourceLocation.prompt)
        #expect(captured.value.hasSuffix("dropped the OpenAPI document users.yaml\nno OpenAPI document loaded; load one with 'openapi FILE'\n"))
    }

    @Test("with a cassette in use, openapi leaves the base to the cassette")
    func cassetteKeepsBase() async throws {
        let folder = try UsersSpec.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, captured) = shell(in: folder)
        shell.modeDescription = "replay tour.json"
        try await shell.run(source: "openapi users.yaml", file: SourceLocation.prompt)
        #expect(shell.state.base == nil)
        #expect(captured.value == "users.yaml: OpenAPI 3.0.3, 4 paths, 6 operations\n")
    }

    @Test("a response that breaks its schema gets a warning naming each member and the schema; a conforming one gets none")
    func responseWarnings() async throws {
        let folder = try UsersSpec.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, captured) = shell(in: folder) { request in
            let body = request.url.path.hasSuffix("/7") ? #"{"id": "seven"}"# : #"{"id": 8, "name": "Ada"}"#
            return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        try await shell.run(source: "openapi users.yaml\nget /users/8", file: SourceLocation.prompt)
        #expect(!captured.value.contains("warning"))
        try await shell.run(source: "get /users/7", file: SourceLocation.prompt)
        let warning = try #require(captured.value.range(of: "warning: this exchange breaks users.yaml:\n").map { String(captured.value[$0.lowerBound...]) })
        let schema = "#/paths/~1users~1{id}/get/responses/200/content/application~1json/schema"
        #expect(warning == """
            warning: this exchange breaks users.yaml:
              response body /name: required member "name" is missing (schema \(schema)/required)
              response body /id: expected integer, found string "seven" (schema \(schema)/properties/id)

            """)
    }

    @Test("tapedeck run's interpreter sends the warnings to its warning channel, not with the output")
    func warningsChannel() async throws {
        let folder = try UsersSpec.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (shell, captured) = shell(in: folder) { _ in HTTPResponse(status: 500) }
        let warnings = Captured()
        shell.options.warnings = warnings.output
        shell.options.echoResponses = false
        try await shell.run(source: "openapi users.yaml\nget /health", file: "t.tape")
        #expect(warnings.value.contains("undocumented status: 500 is not documented (documented: 200)"), "\(warnings.value)")
        #expect(!captured.value.contains("warning"))
    }
}

@Suite("Tab completion from an OpenAPI document")
struct OpenAPICompletionTests {
    private func completer(at path: String = "/") throws -> Completer {
        Completer(currentPath: path, openAPI: try UsersSpec.guide())
    }

    @Test("paths complete segment by segment, relative to the current path or from /")
    func paths() throws {
        let root = try completer()
        #expect(root.complete(word: "u", before: "cd ").candidates == ["users", "users/"])
        #expect(root.complete(word: "users/", before: "cd ").candidates == ["users/me", "users/{id}"])
        #expect(root.complete(word: "/users/m", before: "get ").candidates == ["/users/me"])
        #expect(root.complete(word: "/h", before: "get ").appendSpace)
        let inUsers = try completer(at: "/users")
        #expect(inUsers.complete(word: "", before: "ls ").candidates == ["me", "{id}"])
        #expect(inUsers.complete(word: "../h", before: "cd ").candidates == ["../health"])
    }

    @Test("after a request's path, its parameters and body members complete as HTTPie items")
    func items() throws {
        let root = try completer()
        #expect(root.complete(word: "pa", before: "get /users ").candidates == ["page=="])
        #expect(root.complete(word: "a", before: "post /users ").candidates.filter { !$0.hasSuffix(":") } == ["admin:=", "age:="])
        #expect(root.complete(word: "na", before: "post /users ").candidates == ["name="])
        #expect(root.complete(word: "X-T", before: "get /users/7 ").candidates == ["X-Trace:"])
        #expect(root.complete(word: "ag", before: "post -v /users name=Ada ").candidates == ["age:="], "flags and items are not the path")
        #expect(root.complete(word: "pa", before: "get {{api}}/users ").candidates == ["page=="], "a base URL in a variable")
        let inUsers = try completer(at: "/users")
        #expect(inUsers.complete(word: "na", before: "post ").candidates == ["name="], "the current path's operation, with no path typed")
        #expect(inUsers.complete(word: "na", before: "post age:=36 ").candidates == ["name="], "an item before the word")
        #expect(Completer().complete(word: "na", before: "post /users ").candidates == [], "nothing without a document")
    }
}
