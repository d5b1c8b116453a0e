import Foundation
import Tapedeck
import TapedeckOpenAPI
import Testing

/// The httpbin spec and the vcrpy cassette recorded from a local httpbin (Fixtures/record-httpbin.py).
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    static func spec() throws -> OpenAPISpec {
        try OpenAPISpec.load(directory.appendingPathComponent("httpbin-openapi.yaml"))
    }

    static func cassette() throws -> Cassette {
        try Cassette.load(from: directory.appendingPathComponent("httpbin.yaml"))
    }

    /// `body` decoded, changed by `edit`, and encoded again.
    static func editJSON(_ body: Data, _ edit: (inout [String: Any]) -> Void) throws -> Data {
        var object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        edit(&object)
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    /// The findings for interaction `index` of the recorded cassette after `edit`.
    static func findings(_ index: Int, _ edit: (inout Interaction) throws -> Void) throws -> [OpenAPIFinding] {
        var interaction = try cassette().interactions[index]
        try edit(&interaction)
        return CassetteOpenAPICheck(spec: try spec()).findings(for: interaction, at: index)
    }
}

@Suite("cassette check --openapi: recorded httpbin traffic against its spec")
struct OpenAPICheckTests {
    private let getResponse = "#/paths/~1get/get/responses/200/content/application~1json/schema"

    @Test("the cassette recorded from httpbin matches the spec with no findings")
    func recordedCassetteIsClean() throws {
        let cassette = try Fixture.cassette()
        #expect(cassette.interactions.map(\.request.url.path) == ["/get", "/json", "/post", "/status/204", "/uuid"])
        #expect(CassetteOpenAPICheck(spec: try Fixture.spec()).findings(in: cassette) == [])
    }

    @Test("a member of the wrong type is found at its pointer and its schema location")
    func wrongType() throws {
        let findings = try Fixture.findings(0) { interaction in
            interaction.response.body = try Fixture.editJSON(interaction.response.body) { $0["url"] = 42 }
        }
        #expect(findings == [OpenAPIFinding(index: 0, method: "GET", url: "http://httpbin.local/get?page=2", kind: .responseBody,
                                            pointer: "/url", schemaLocation: getResponse + "/properties/url",
                                            message: "expected string, found number 42")])
        #expect(findings.first?.description == "interactions[0] GET http://httpbin.local/get?page=2: response body /url: expected string, "
            + "found number 42 (schema #/paths/~1get/get/responses/200/content/application~1json/schema/properties/url)")
    }

    @Test("a missing required member of a request body is found through its $ref")
    func missingRequired() throws {
        let findings = try Fixture.findings(2) { interaction in
            interaction.request.body = try Fixture.editJSON(interaction.request.body ?? Data()) { $0["name"] = nil }
        }
        #expect(findings.map(\.kind) == [.requestBody])
        #expect(findings.map(\.pointer) == ["/name"])
        #expect(findings.map(\.schemaLocation) == ["#/components/schemas/NewUser/required"])
    }

    @Test("an extra member is found where additionalProperties is false, at the top and inside a $ref'd array item")
    func extraMember() throws {
        let top = try Fixture.findings(0) { interaction in
            interaction.response.body = try Fixture.editJSON(interaction.response.body) { $0["extra"] = true }
        }
        #expect(top.map(\.pointer) == ["/extra"])
        #expect(top.map(\.schemaLocation) == [getResponse + "/additionalProperties"])
        let nested = try Fixture.findings(1) { interaction in
            interaction.response.body = try Fixture.editJSON(interaction.response.body) { object in
                var slideshow = object["slideshow"] as? [String: Any] ?? [:]
                var slides = slideshow["slides"] as? [[String: Any]] ?? []
                slides[1]["note/1"] = "x"
                slideshow["slides"] = slides
                object["slideshow"] = slideshow
            }
        }
        #expect(nested.map(\.pointer) == ["/slideshow/slides/1/note~11"])
        #expect(nested.map(\.schemaLocation) == ["#/components/schemas/Slide/additionalProperties"])
    }

    @Test("a value outside an enum is found at the enum")
    func enumValue() throws {
        let findings = try Fixture.findings(2) { interaction in
            interaction.request.body = try Fixture.editJSON(interaction.request.body ?? Data()) { $0["role"] = "root" }
        }
        #expect(findings.map(\.pointer) == ["/role"])
        #expect(findings.map(\.schemaLocation) == ["#/components/schemas/NewUser/properties/role/enum"])
        #expect(findings.first?.message == #""root" is not one of the allowed values ["admin", "user"]"#)
    }

    @Test("an undocumented status is found at the operation's responses")
    func undocumentedStatus() throws {
        let findings = try Fixture.findings(3) { $0.response.status = 500 }
        #expect(findings.map(\.kind) == [.undocumentedStatus])
        #expect(findings.map(\.schemaLocation) == ["#/paths/~1status~1{code}/get/responses"])
        #expect(findings.first?.message == "500 is not documented (documented: 200, 204, 418)")
    }

    @Test("an unknown path and an undocumented method are found")
    func unknownPathAndMethod() throws {
        let path = try Fixture.findings(4) { $0.request.url = try #require(URL(string: "http://httpbin.local/nowhere")) }
        #expect(path.map(\.kind) == [.unknownPath])
        #expect(path.first?.message.hasSuffix("matches /nowhere") == true)
        let method = try Fixture.findings(4) { $0.request.method = .delete }
        #expect(method.map(\.kind) == [.unknownMethod])
        #expect(method.map(\.schemaLocation) == ["#/paths/~1uuid"])
    }

    @Test("mistyped and out-of-format parameters are found at the parameter's schema")
    func parameters() throws {
        let word = try Fixture.findings(0) { $0.request.url = try #require(URL(string: "http://httpbin.local/get?page=two")) }
        #expect(word.map(\.pointer) == ["query page"])
        #expect(word.map(\.schemaLocation) == ["#/paths/~1get/get/parameters/0/schema"])
        let large = try Fixture.findings(0) { $0.request.url = try #require(URL(string: "http://httpbin.local/get?page=3000000000")) }
        #expect(large.map(\.schemaLocation) == ["#/paths/~1get/get/parameters/0/schema/format"])
        let code = try Fixture.findings(3) { $0.request.url = try #require(URL(string: "http://httpbin.local/status/teapot")) }
        #expect(code.map(\.pointer) == ["path code"])
        #expect(code.first?.message == #"expected integer, found string "teapot""#)
    }

    @Test("a required request body that is missing is found")
    func missingBody() throws {
        let findings = try Fixture.findings(2) { $0.request.body = nil }
        #expect(findings.map(\.schemaLocation) == ["#/paths/~1post/post/requestBody"])
    }

    @Test("an OpenAPI 3.1 document is read as it is, with type lists and $ref")
    func openAPI31() throws {
        let spec = try OpenAPISpec.parse("""
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
             "paths": {"/uuid": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json":
               {"schema": {"$ref": "#/components/schemas/Id"}}}}}}}},
             "components": {"schemas": {"Id": {"type": "object", "required": ["uuid"],
               "properties": {"uuid": {"type": ["integer", "null"]}}}}}}
            """, path: "inline.json")
        let cassette = try Fixture.cassette()
        let findings = CassetteOpenAPICheck(spec: spec).findings(for: cassette.interactions[4], at: 4)
        #expect(findings.map(\.pointer) == ["/uuid"])
        #expect(findings.map(\.schemaLocation) == ["#/components/schemas/Id/properties/uuid"])
    }

    @Test("documents that are not OpenAPI 3.0 or 3.1 are refused with the file's name")
    func badDocuments() throws {
        #expect(throws: OpenAPISpecError.unsupportedVersion(path: "old.yaml", version: "2.0")) {
            try OpenAPISpec.parse("openapi: '2.0'\ninfo: {title: t, version: '1'}\npaths: {}\n", path: "old.yaml")
        }
        #expect {
            try OpenAPISpec.parse("swagger: '2.0'\n", path: "swagger.yaml")
        } throws: { error in
            (error as? OpenAPISpecError)?.errorDescription?.hasPrefix("swagger.yaml is not an OpenAPI document") == true
        }
        #expect {
            try OpenAPISpec.parse("openapi: 3.0.3\ninfo: {title: t}\npaths: {}\n", path: "broken.yaml")
        } throws: { error in
            (error as? OpenAPISpecError)?.errorDescription?.hasPrefix("broken.yaml is not a valid OpenAPI document") == true
        }
        // Valid YAML that is not a valid document says what is wrong, not that the YAML is.
        let noPaths = #expect(throws: OpenAPISpecError.self) {
            try OpenAPISpec.parse("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: [1, 2]\n", path: "list.yaml")
        }
        #expect(noPaths?.errorDescription?.contains("not valid YAML") == false, "\(String(describing: noPaths?.errorDescription))")
        let directory = FileManager.default.temporaryDirectory
        let folder = #expect(throws: OpenAPISpecError.self) { try OpenAPISpec.load(directory) }
        #expect(folder?.errorDescription?.contains("it is a folder") == true, "\(String(describing: folder?.errorDescription))")
        let latin1 = directory.appendingPathComponent("latin1-\(UUID().uuidString).yaml")
        try Data("openapi: 3.0.3\ninfo: {title: caf\u{E9}}\n".data(using: .isoLatin1) ?? Data()).write(to: latin1)
        defer { try? FileManager.default.removeItem(at: latin1) }
        let notUTF8 = #expect(throws: OpenAPISpecError.self) { try OpenAPISpec.load(latin1) }
        #expect(notUTF8?.errorDescription?.contains("not UTF-8 text") == true, "\(String(describing: notUTF8?.errorDescription))")
    }
}
