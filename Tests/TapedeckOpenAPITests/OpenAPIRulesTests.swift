import Foundation
import Tapedeck
import TapedeckOpenAPI
import Testing

@Suite("cassette check --openapi: string formats, bounds, response headers and cookie parameters")
struct OpenAPIRulesTests {
    /// A document with one operation, `GET /v`, whose 200 response is JSON `{"v": …}` with
    /// `valueSchema` for `v` and `headers` (YAML mapping entries) documented.
    private static func spec(valueSchema: String, headers: String? = nil) throws -> OpenAPISpec {
        try spec(schema: "{type: object, properties: {v: \(valueSchema)}}", headers: headers, path: "v.yaml")
    }

    /// A document whose `GET /v` answers 200 with JSON of the schema `answer` names, among
    /// `schemas` (YAML mapping entries of `components.schemas`).
    fileprivate static func spec(answering answer: String, schemas: [String]) throws -> OpenAPISpec {
        try spec(schema: "{$ref: \"#/components/schemas/\(answer)\"}", path: "\(answer).yaml",
                 components: "components:\n  schemas:\n" + schemas.map { "    " + $0 }.joined(separator: "\n"))
    }

    /// A document whose one operation, `GET /v`, answers 200 with JSON of `schema`.
    private static func spec(schema: String, headers: String? = nil, path: String, components: String = "") throws -> OpenAPISpec {
        try OpenAPISpec.parse("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /v:
                get:
                  responses:
                    "200":
                      description: ok
                      headers: {\(headers ?? "")}
                      content:
                        application/json:
                          schema: \(schema)
            \(components)
            """, path: path)
    }

    /// The findings for `GET http://h/v` answered 200 with `body` (JSON) and `headers`.
    fileprivate static func findings(_ spec: OpenAPISpec, body: String, headers: HTTPHeaders = [:]) -> [OpenAPIFinding] {
        var responseHeaders = headers
        responseHeaders.replaceOrAdd(name: "Content-Type", value: "application/json")
        let interaction = Interaction(request: HTTPRequest(method: .get, url: URL(string: "http://h/v")!),
                                      response: HTTPResponse(status: 200, headers: responseHeaders, body: Data(body.utf8)),
                                      recordedAt: Date())
        return CassetteOpenAPICheck(spec: spec).findings(for: interaction, at: 0)
    }

    private let newUser = "#/components/schemas/NewUser/properties"
    private let getHeaders = "#/paths/~1get/get/responses/200/headers"

    @Test("each string format rejects what it should and accepts what it should", arguments: [
        ("date-time", "2026-11-23T10:00:00Z", "2026-02-30T10:00:00Z"),
        ("date-time", "2026-11-23T10:00:00.5+01:00", "2026-11-23 10:00:00"),
        ("date-time", "2026-11-23t10:00:00z", "2026-11-23T10:00:00"),
        ("time", "10:00:00Z", "10:00:00"),
        ("date", "2026-11-23", "2026-13-01"),
        ("email", "ada@example.com", "ada at example.com"),
        ("email", "ada@localhost", "@example.com"),
        ("uuid", "0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165"),
        ("uri", "https://example.com/a?b=1", "not a uri"),
        ("hostname", "api.example.com", "-bad-.example.com"),
        ("ipv4", "127.0.0.1", "256.0.0.1"),
        ("ipv4", "10.0.0.1", "1.2.3.4\u{0}junk"),
        ("ipv6", "::1", "::g"),
        ("byte", "aGVsbG8=", "aGVsbG8"),
    ])
    func formats(format: String, good: String, bad: String) throws {
        let spec = try Self.spec(valueSchema: "{type: string, format: \(format)}")
        func findings(_ value: String) -> [OpenAPIFinding] {
            Self.findings(spec, body: JSONWriter.write(.object([("v", .string(value))])))
        }
        #expect(findings(good) == [])
        let found = findings(bad)
        #expect(found.map(\.pointer) == ["/v"])
        #expect(found.map(\.schemaLocation) == ["#/paths/~1v/get/responses/200/content/application~1json/schema/properties/v/format"])
        #expect(found.first?.message == "\"\(bad)\" is not a valid \(format)")
    }

    @Test("minimum, maximum and an email format in a request body are found at their keywords")
    func bounds() throws {
        let findings = try Fixture.findings(2) { interaction in
            interaction.request.body = try Fixture.editJSON(interaction.request.body ?? Data()) {
                $0["age"] = 200
                $0["email"] = "ada@"
            }
        }
        #expect(findings.map(\.kind) == [.requestBody, .requestBody])
        #expect(findings.map(\.pointer) == ["/age", "/email"])
        #expect(findings.map(\.schemaLocation) == [newUser + "/age/maximum", newUser + "/email/format"])
        #expect(findings.first?.message == "200 is greater than the maximum 150")
    }

    @Test("a documented response header that is missing or malformed is found; Content-Type is left to the media type")
    func responseHeaders() throws {
        let missing = try Fixture.findings(0) { $0.response.headers.remove(name: "Content-Length") }
        #expect(missing.map(\.kind) == [.responseHeader])
        #expect(missing.map(\.pointer) == ["header Content-Length"])
        #expect(missing.map(\.schemaLocation) == [getHeaders + "/Content-Length/required"])
        let malformed = try Fixture.findings(0) { $0.response.headers.replaceOrAdd(name: "X-Request-Id", value: "12") }
        #expect(malformed.map(\.schemaLocation) == [getHeaders + "/X-Request-Id/schema/format"])
        let zero = try Fixture.findings(0) { $0.response.headers.replaceOrAdd(name: "Content-Length", value: "0") }
        #expect(zero.map(\.message) == ["0 is less than the minimum 1"])
    }

    @Test("a cookie parameter is read from the Cookie header and checked against its schema")
    func cookies() throws {
        let good = try Fixture.findings(0) { try $0.request.headers.add(name: "Cookie", value: "theme=dark; session=abc123") }
        #expect(good == [])
        let bad = try Fixture.findings(0) { try $0.request.headers.add(name: "Cookie", value: "session=XYZ!; theme=dark") }
        #expect(bad.map(\.kind) == [.parameter])
        #expect(bad.map(\.pointer) == ["cookie session"])
        #expect(bad.first?.schemaLocation.hasSuffix("/parameters/1/schema/pattern") == true)
    }

    @Test("int64 takes integers written as 1.0 or 1e3 and refuses 2^63; an array-typed header is read as comma-separated items")
    func int64AndArrays() throws {
        let spec = try Self.spec(valueSchema: "{type: integer, format: int64}",
                                 headers: "X-Limits: {schema: {type: array, items: {type: integer}}}")
        func messages(_ value: String, limits: String = "1, 2") -> [String] {
            Self.findings(spec, body: #"{"v": \#(value)}"#, headers: ["X-Limits": limits]).map(\.message)
        }
        #expect(messages("1.0") == [] && messages("1e3") == [] && messages("9223372036854775807") == [])
        #expect(messages("9223372036854775808") == ["9223372036854775808 does not fit format int64"])
        #expect(messages("1", limits: "1,x") == [#"expected integer, found string "x""#])
    }
}

@Suite("OpenAPIGuide: the document's paths as a tree, its operations' inputs")
struct OpenAPIGuideTests {
    private func guide() throws -> OpenAPIGuide { OpenAPIGuide(spec: try Fixture.spec()) }

    @Test("children lists segments with their methods; templates match concrete segments")
    func children() throws {
        let guide = try guide()
        #expect(guide.children(of: "/").map(\.name) == ["get", "json", "post", "status", "uuid"])
        let status = try #require(guide.children(of: "/").first { $0.name == "status" })
        #expect(status.methods == [] && status.hasChildren)
        #expect(guide.children(of: "/status").map(\.name) == ["{code}"])
        #expect(guide.methods(at: "/status/418") == ["GET"])
        #expect(guide.knows("/status") && guide.knows("/status/418") && !guide.knows("/nope") && !guide.knows("/get/deeper"))
        #expect(guide.serverURL?.absoluteString == "http://httpbin.local")
        #expect(guide.counts.paths == 5 && guide.counts.operations == 5)
    }

    @Test("inputs are the operation's parameters and its JSON body's members, typed for HTTPie items")
    func inputs() throws {
        let guide = try guide()
        let get = try #require(guide.inputs(method: "get", path: "/get"))
        #expect(get.map(\.name) == ["page", "session"])
        #expect(get.map(\.place) == [.query, .cookie])
        let post = try #require(guide.inputs(method: "POST", path: "/post"))
        #expect(post.filter { $0.place == .body }.map { "\($0.name)\($0.isString ? "=" : ":=")" } == ["name=", "age:=", "email=", "role="])
        #expect(post.first { $0.name == "name" }?.required == true)
        #expect(guide.inputs(method: "DELETE", path: "/post") == nil)
    }

    @Test("a path under the server's base path is the documented path; sibling templates keep their own methods")
    func basePathsAndSiblings() throws {
        let guide = OpenAPIGuide(spec: try OpenAPISpec.parse("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            servers: [{url: "https://{region}.api.test/v1", variables: {region: {default: eu}}}]
            paths:
              /users/{id}:
                get: {responses: {"200": {description: ok}}}
                delete: {responses: {"204": {description: ok}}}
              /users/{userId}/posts:
                get: {responses: {"200": {description: ok}}}
            """, path: "s.yaml"))
        #expect(guide.serverURL?.absoluteString == "https://eu.api.test/v1")
        #expect(guide.knows("/v1/users/7") && guide.knows("/users/7/posts"))
        #expect(guide.children(of: "/v1/users").map { "\($0.name) \($0.methods) \($0.hasChildren)" }
            == ["{id} [\"GET\", \"DELETE\"] false", "{userId} [] true"])
        let request = HTTPRequest(method: .get, url: URL(string: "http://localhost:8080/api/users/7")!)
        #expect(guide.findings(request: request, response: HTTPResponse(status: 200)).map(\.kind) == [.unknownPath])
        #expect(guide.findings(request: request, response: HTTPResponse(status: 200), basePath: "/api") == [],
                "the session's base path comes off before matching")
    }

    @Test("a $ref chain that comes back to itself is named as a cycle with its path; a recursive schema through properties is fine")
    func referenceCycle() throws {
        let cyclic = try OpenAPIRulesTests.spec(answering: "A", schemas: [
            ##"A: {$ref: "#/components/schemas/B"}"##,
            ##"B: {$ref: "#/components/schemas/A"}"##,
            ##"Node: {type: object, properties: {child: {$ref: "#/components/schemas/Node"}}}"##,
        ])
        let messages = OpenAPIRulesTests.findings(cyclic, body: #"{"v": 1}"#).map(\.message)
        #expect(messages == ["the schema's $ref chain is a cycle (#/components/schemas/A → #/components/schemas/B → #/components/schemas/A), "
            + "so it never reaches a schema; give one of them a schema of its own instead of a $ref"])
        #expect(!messages.joined().contains("do not define"))
    }

    @Test("combinators that nest to the same schema are checked within a bound, and a value they cut short is named as not checked")
    func nestedCombinators() throws {
        // S0 … S29: each anyOf two $refs to the next, S30 a string; a number fails every branch,
        // so a check with no bound takes 2^30 steps.
        var schemas = (0..<30).map { "S\($0): {anyOf: [{$ref: \"#/components/schemas/S\($0 + 1)\"}, {$ref: \"#/components/schemas/S\($0 + 1)\"}]}" }
        schemas.append("S30: {type: string}")
        let spec = try OpenAPIRulesTests.spec(answering: "S0", schemas: schemas)
        let messages = OpenAPIRulesTests.findings(spec, body: "1").map(\.message)
        #expect(messages.count == 1 && messages[0].hasPrefix("not checked: the schema's allOf, anyOf and oneOf nest"), "\(messages)")
        #expect(OpenAPIRulesTests.findings(spec, body: #""text""#).isEmpty, "a value the first branches take is checked")
        // A large value with no combinators is checked whole: the bound grows with the value.
        let integers = try OpenAPIRulesTests.spec(answering: "List", schemas: ["List: {type: array, items: {type: integer}}"])
        let body = "[" + String(repeating: "1, ", count: 250_000) + "\"x\"]"
        let found = OpenAPIRulesTests.findings(integers, body: body)
        #expect(found.map(\.pointer) == ["/250000"] && found.map(\.message) == [#"expected integer, found string "x""#], "\(found.map(\.message))")
    }

    @Test("a cassette that holds credentials is checked redacted, none quoted and none a finding; a control character is shown escaped")
    func redactedAndEscaped() throws {
        let spec = try OpenAPISpec.parse("""
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /login:
                post:
                  parameters:
                    - {name: api_key, in: query, schema: {type: integer}}
                  requestBody:
                    content:
                      application/json:
                        schema: {type: object, properties: {password: {type: integer}, user: {type: integer}}}
                  responses:
                    "200":
                      description: ok
                      content:
                        application/json:
                          schema: {type: object, properties: {access_token: {type: integer}, note: {type: integer}}}
            """, path: "login.yaml")
        let secret = "sk_live_51HqLyjWDarjtT1zdp7dcXYZabc"
        let interaction = Interaction(
            request: HTTPRequest(method: .post, url: URL(string: "http://h/login?api_key=\(secret)")!,
                                 headers: ["Content-Type": "application/json", "Authorization": "Bearer \(secret)"],
                                 body: Data(#"{"password": "Hunter2-S3cret!", "user": "ada"}"#.utf8)),
            response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                   body: Data(#"{"access_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "note": "\u001b]0;pwned\u0007"}"#.utf8)),
            recordedAt: Date())
        let lines = CassetteOpenAPICheck(spec: spec).findings(in: Cassette(interactions: [interaction])).map(\.description)
        #expect(lines.count == 2, "user and note are not integers; the redacted values are not checked: \(lines)")
        for line in lines {
            for secret in [secret, "Hunter2", "eyJhbGci"] { #expect(!line.contains(secret), "\(line)") }
            #expect(!line.contains("\u{1B}") && !line.contains("\u{7}"), "\(line)")
        }
        #expect(lines.contains { $0.contains(#"\x1b]0;pwned\x07"#) }, "\(lines)")
    }

    @Test("readOnly members may be left out of a request, writeOnly ones out of a response; enums hold null, arrays and objects")
    func directionsAndEnums() throws {
        let spec = try OpenAPISpec.parse("""
            openapi: 3.1.0
            info: {title: t, version: "1"}
            paths:
              /users:
                post:
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: "#/components/schemas/User"}
                  responses:
                    "201":
                      description: made
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/User"}
                    "500": {$ref: "#/components/responses/Missing"}
            components:
              schemas:
                User:
                  type: object
                  required: [id, password, name, owner]
                  properties:
                    id: {type: integer, readOnly: true}
                    owner: {$ref: "#/components/schemas/Id", readOnly: true}
                    password: {type: string, writeOnly: true}
                    name: {type: string}
                    e: {enum: ["x", null]}
                    pair: {enum: [[1, 2], {"a": 1}]}
                    flag: {enum: ["true"]}
                Id: {type: integer}
            """, path: "users.yaml")
        func findings(request: String, response: String, status: Int = 201) -> [String] {
            let interaction = Interaction(request: HTTPRequest(method: .post, url: URL(string: "http://h/users")!,
                                                               headers: ["Content-Type": "application/json"], body: Data(request.utf8)),
                                          response: HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(response.utf8)),
                                          recordedAt: Date())
            return CassetteOpenAPICheck(spec: spec).findings(for: interaction, at: 0).map(\.message)
        }
        #expect(findings(request: #"{"password": "pw", "name": "ada", "e": null, "pair": [1, 2]}"#,
                         response: #"{"id": 7, "owner": 1, "name": "ada", "e": "x", "pair": {"a": 1}}"#) == [])
        #expect(findings(request: #"{"name": "ada"}"#, response: #"{"name": "ada"}"#)
            == [#"required member "password" is missing"#, #"required member "id" is missing"#, #"required member "owner" is missing"#])
        #expect(findings(request: #"{"password": "pw", "name": "ada", "flag": true}"#, response: #"{"id": 7, "owner": 1, "name": "ada"}"#)
            == [#"true is not one of the allowed values ["true"]"#])
        let html = Interaction(request: HTTPRequest(method: .post, url: URL(string: "http://h/users")!, headers: ["Content-Type": "application/json"],
                                                    body: Data(#"{"password": "pw", "name": "ada"}"#.utf8)),
                               response: HTTPResponse(status: 201, headers: ["Content-Type": "text/html"], body: Data("<p>made</p>".utf8)), recordedAt: Date())
        #expect(CassetteOpenAPICheck(spec: spec).findings(for: html, at: 0).map(\.message) == ["media type text/html is not documented (documented: application/json)"])
        #expect(findings(request: #"{"password": "pw", "name": "ada"}"#, response: "{}", status: 500)
            == ["the response for 500 refers to #/components/responses/Missing, which the document's components do not define"])
        // A recorded transport failure has no response to check.
        var failed = Interaction(request: HTTPRequest(method: .post, url: URL(string: "http://h/users")!), response: HTTPResponse(status: 0), recordedAt: Date())
        failed.failure = TransportFailure(kind: .cannotConnect, detail: "refused")
        #expect(CassetteOpenAPICheck(spec: spec).findings(for: failed, at: 0) == [])
    }

    @Test("a path is split on the slashes sent and each segment decoded once; a template may sit inside a segment; an exploded query array is every value")
    func pathsAndQueryArrays() throws {
        let spec = try OpenAPISpec.parse("""
            openapi: 3.0.3
            info: {title: t, version: "1"}
            paths:
              /files/{name}.json:
                get:
                  parameters: [{name: name, in: path, required: true, schema: {type: string, pattern: "^[a-z]+$"}}]
                  responses: {"200": {description: ok}}
              /users/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                  responses: {"200": {description: ok}}
              /pets/{petId}:
                get:
                  parameters:
                    - {name: petId, in: path, required: true, schema: {type: integer}}
                    - {name: ids, in: query, schema: {type: array, minItems: 2, items: {type: integer}}}
                  responses: {"200": {description: ok}}
            """, path: "paths.yaml")
        func findings(_ url: String) -> [String] {
            let interaction = Interaction(request: HTTPRequest(url: URL(string: url)!), response: HTTPResponse(status: 200), recordedAt: Date())
            return CassetteOpenAPICheck(spec: spec).findings(for: interaction, at: 0).map(\.message)
        }
        #expect(findings("http://h/files/report.json") == [])
        #expect(findings("http://h/files/r3port.json").count == 1)
        #expect(findings("http://h/users/a%2Fb") == [], "an escaped slash is part of the value")
        #expect(findings("http://h/pets/5?ids=1&ids=2") == [])
        #expect(findings("http://h/pets/5?ids=1&ids=x") == [#"expected integer, found string "x""#])
        #expect(findings("http://h/pets/%2535") == [#"expected integer, found string "%35""#], "decoded once, as the server reads it")
        // A server's base path with an escape in it comes off a path sent with that escape.
        let based = try OpenAPISpec.parse("""
            openapi: 3.0.3
            info: {title: t, version: "1"}
            servers: [{url: "https://h/caf%C3%A9/v1"}]
            paths:
              /users/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses: {"200": {description: ok}}
            """, path: "based.yaml")
        let interaction = Interaction(request: HTTPRequest(url: URL(string: "https://h/caf%C3%A9/v1/users/7")!), response: HTTPResponse(status: 200), recordedAt: Date())
        #expect(CassetteOpenAPICheck(spec: based).findings(for: interaction, at: 0) == [])
    }
}
