import Foundation
@testable import Tapedeck
import Testing

@Suite("The secret lint knows vendors' token formats")
struct VendorTokenLintTests {
    static let samples: [(String, String)] = [
        ("GitHub token", "ghp_" + String(repeating: "a1B2", count: 9)),
        ("Slack token", "xoxb-1234567890-0987654321-" + String(repeating: "z", count: 24)),
        ("Stripe live key", "sk_live_" + String(repeating: "4eC39HqLyjWDarjtT1zdp7dc", count: 1)),
        ("AWS access key ID", "AKIA" + "IOSFODNN7EXAMPLE"),
        ("GitLab token", "glpat-" + String(repeating: "x9Y8", count: 5)),
        ("Google API key", "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
        ("OpenAI key", "sk-proj-" + String(repeating: "Ab3_x-Q9", count: 6)),
        ("Anthropic key", "sk-ant-api03-" + String(repeating: "Zq8w", count: 8)),
        ("npm token", "npm_" + String(repeating: "a1B2c3", count: 6)),
        ("Hugging Face token", "hf_" + String(repeating: "kLm9", count: 9)),
        ("PyPI token", "pypi-AgEIcHlwaS5vcmc" + String(repeating: "CJ8xYz-_", count: 6)),
        ("SendGrid key", "SG." + String(repeating: "n4X", count: 7) + "a." + String(repeating: "Qr7-", count: 10) + "abc"),
        ("Shopify token", "shpat_" + String(repeating: "0f9e", count: 8)),
        ("DigitalOcean token", "dop_v1_" + String(repeating: "9a8b7c6d", count: 8)),
        ("PEM private key", "-----BEGIN RSA PRIVATE KEY-----"),
        ("PEM private key", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----"),
    ]

    static func interaction(body: String, contentType: String = "text/plain", header: (String, String)? = nil) -> Interaction {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let header { headers[header.0] = header.1 }
        return Interaction(request: HTTPRequest(url: URL(string: "http://api.test/x")!),
                           response: HTTPResponse(status: 200, headers: headers, body: Data(body.utf8)))
    }

    @Test("each format is found in a text body, a JSON member and any header, and named", arguments: samples)
    func found(kind: String, token: String) {
        for interaction in [Self.interaction(body: "config:\n  key = \(token)\n"),
                            Self.interaction(body: #"{"note": "\#(token)"}"#, contentType: "application/json"),
                            Self.interaction(body: "ok", header: ("X-Debug", "value \(token)"))] {
            let findings = SecretLint.findings(in: interaction, index: 0)
            #expect(findings.contains { $0.kind == kind }, "\(kind): \(findings)")
            #expect(findings.allSatisfy { !$0.excerpt.contains(String(token.dropFirst(10))) }, "the report never shows the token")
        }
    }

    @Test("a WebSocket session's binary frames are read too: a token sent as binary is found")
    func binaryFrames() {
        var session = Self.interaction(body: "")
        session.response.status = 101
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .binary,
                                                       data: Data(#"{"access_token":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}"#.utf8))]
        let findings = SecretLint.findings(in: session, index: 0)
        #expect(findings.contains { $0.kind == "GitHub token" && $0.field.hasPrefix("WebSocket frame 0 body") }, "\(findings)")
    }

    @Test("a token among bytes that are not text, and one in a close frame's reason, are found")
    func binaryAndCloseFrames() {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        var session = Self.interaction(body: "")
        session.response.status = 101
        // A MessagePack map: 0x81, a 5-byte string key, a 40-byte string value.
        let packed = Data([0x81, 0xA5] + Array("token".utf8) + [0xD9, 0x28] + Array(token.utf8) + [0xFF, 0x00])
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .binary, data: packed),
                                      WebSocketMessage(offset: 1, sender: .server, kind: .close,
                                                       data: WebSocketMessage.closePayload(code: 4001, reason: "expired Bearer abcdefgh12345678"))]
        let findings = SecretLint.findings(in: session, index: 0)
        #expect(findings.contains { $0.kind == "GitHub token" && $0.field == "WebSocket frame 0 body" }, "\(findings)")
        #expect(findings.contains { $0.kind == "bearer token" && $0.field == "WebSocket frame 1 body" }, "\(findings)")
        // A length byte that reads as a letter (Protobuf's 0x6C before a 108-byte key) does not hide it.
        let anthropic = "sk-ant-api03-" + String(repeating: "Zq8w", count: 23) + "abc"
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .binary, data: Data([0x0A, UInt8(anthropic.utf8.count)] + Array(anthropic.utf8)))]
        #expect(anthropic.utf8.count == 108)
        #expect(SecretLint.findings(in: session, index: 0).contains { $0.kind == "Anthropic key" }, "\(SecretLint.findings(in: session, index: 0))")
        // Random bytes are not a token.
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .server, kind: .binary, data: Data((0..<4096).map { UInt8(($0 * 7919) % 251) }))]
        #expect(SecretLint.findings(in: session, index: 0).isEmpty)
    }

    @Test("redaction reads a JSON document sent as a binary frame as JSON, and a close frame's reason, keeping its code")
    func redactedFrames() {
        var session = Interaction(request: HTTPRequest(url: URL(string: "http://chat.test/ws")!, headers: ["Authorization": "Bearer tok_secret_1234567"]),
                                  response: HTTPResponse(status: 101))
        session.response.webSocket = [WebSocketMessage(offset: 0, sender: .client, kind: .binary, data: Data(#"{"password":"hunter2hunter2"}"#.utf8)),
                                      WebSocketMessage(offset: 1, sender: .server, kind: .close,
                                                       data: WebSocketMessage.closePayload(code: 4003, reason: "token tok_secret_1234567 revoked"))]
        let redacted = Redactor.standard.redact(session).response.webSocket ?? []
        let binary = String(decoding: redacted[0].data, as: UTF8.self)
        #expect(!binary.contains("hunter2hunter2") && binary.contains(Redactor.placeholder), "\(binary)")
        #expect(redacted[1].closeCode == 4003)
        #expect(!redacted[1].closeReason.contains("tok_secret_1234567") && redacted[1].closeReason.contains("revoked"), "\(redacted[1].closeReason)")
    }

    @Test("whole-cassette redaction replaces a token among bytes that are not text, so the lint finds none after")
    func binaryRedacted() {
        let token = "sk-proj-" + String(repeating: "Ab3_x-Q9", count: 6)
        let body = Data([0x82, 0xFF, 0xA3] + Array("key".utf8) + [0xD9, UInt8(token.utf8.count)] + Array(token.utf8) + [0xC0, 0xFE])
        let interaction = Self.interaction(body: "")
        var binary = interaction
        binary.response.body = body
        binary.response.headers["Content-Type"] = "application/msgpack"
        #expect(!SecretLint.findings(in: Cassette(interactions: [binary])).isEmpty)
        let redacted = Redactor.standard.redact(Cassette(interactions: [binary]))
        #expect(redacted.interactions[0].response.body.range(of: Data(token.utf8)) == nil)
        #expect(SecretLint.findings(in: redacted).isEmpty, "\(SecretLint.findings(in: redacted))")
    }

    @Test("whole-cassette redaction replaces every token a text holds, however many")
    func manyTokens() {
        let tokens = (0..<40).map { "hf_" + String(repeating: "Ab\($0 % 10)c", count: 8) + "x\($0)" }
        let cassette = Cassette(interactions: [Self.interaction(body: tokens.joined(separator: "\n"))])
        let redacted = Redactor.standard.redact(cassette)
        let text = String(decoding: redacted.interactions[0].response.body, as: UTF8.self)
        #expect(tokens.allSatisfy { !text.contains($0) }, "\(text.prefix(300))")
        #expect(SecretLint.findings(in: redacted).isEmpty)
    }

    @Test("a token in an event stream is one finding, not also a field redaction would change")
    func oneFindingPerToken() {
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        let events = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/events")!),
                                 response: HTTPResponse(status: 200, headers: ["Content-Type": "text/event-stream"],
                                                        chunks: [BodyChunk(offset: 0, data: Data("data: {\"t\":\"\(token)\"}\n\n".utf8))]))
        let findings = SecretLint.findings(in: Cassette(interactions: [events]))
        #expect(findings.count == 1 && findings.first?.kind == "GitHub token", "\(findings)")
    }

    @Test("a header is judged by its value's shape and by its name, in any case", arguments: [
        ("X-Trace", "bEaReR abcdefgh12345", "bearer token"),
        ("X-Trace", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "JWT"),
        ("X-Trace", "id akia" + "IOSFODNN7EXAMPLE", nil),
        ("Authorization", "Basic dXNlcjpwYXNz", "key-like value"),
        ("x-api-KEY", "12345", "key-like value"),
        ("X-Session-Password", "hunter2hunter2", "key-like value"),
        ("Refresh-Token", "r-1", "key-like value"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==", nil),
        ("X-CSRF-Token", "abc", nil),
        ("X-Api-Key", "<REDACTED>", nil),
        ("Authorization", "Bearer <REDACTED>", nil),
        ("Content-Type", "application/json", nil),
        ("Date", "Sat, 28 Nov 2026 02:20:53 GMT", nil),
    ] as [(String, String, String?)])
    func headers(name: String, value: String, kind: String?) throws {
        var headers: HTTPHeaders = [:]
        try headers.add(name: name, value: value)
        let interaction = Interaction(request: HTTPRequest(url: URL(string: "http://api.test/x")!, headers: headers),
                                      response: HTTPResponse(status: 200))
        let found = SecretLint.findings(in: interaction, index: 0).filter { $0.field.hasPrefix("request header") }
        #expect(found.map(\.kind) == (kind.map { [$0] } ?? []), "\(name): \(value)")
    }

    @Test("a token after an escape is found: a percent-encoded '=' before it, or JSON's \\n written as text")
    func afterEscapes() {
        let token = "ghp_" + String(repeating: "a1B2", count: 9)
        for text in ["callback=https%3A%2F%2Fapp.test%2Fcb%3Ftoken%3D" + token, #"{\"note\":\"line\n"# + token + #"\"}"#] {
            #expect(SecretLint.findings(in: Self.interaction(body: text), index: 0).contains { $0.kind == "GitHub token" }, "\(text)")
        }
    }

    @Test("look-alikes are not tokens: inside a word, too short, or the wrong length")
    func lookAlikes() {
        for text in ["xghp_" + String(repeating: "a", count: 30), "ghp_short", "AKIA1234", "AKIA" + String(repeating: "A", count: 20),
                     "sk_test_" + String(repeating: "a", count: 20), "BEGIN PUBLIC KEY",
                     "AIza" + String(repeating: "b", count: 20), "sk-proj-short", "task-proj-" + String(repeating: "c", count: 30),
                     "npm_install", "hf_" + String(repeating: "d", count: 10), "shpat_" + String(repeating: "e", count: 40),
                     "sk-proj-your-api-key-goes-here-please", "see /projects/sk-ant-colony-simulation-project",
                     String(repeating: "AIza-", count: 4_000), String(repeating: "sk-ant-", count: 20_000)] {
            #expect(SecretLint.findings(in: Self.interaction(body: text), index: 0).isEmpty, "\(text)")
        }
    }
}
