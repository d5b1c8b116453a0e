import Foundation
import Testing
@testable import Tapedeck

@Suite("HTTP headers")
struct HTTPHeadersTests {
    @Test("lookup ignores case, order and repeats are kept")
    func lookup() throws {
        var headers: HTTPHeaders = ["Content-Type": "text/plain"]
        try headers.add(name: "Set-Cookie", value: "a=1")
        try headers.add(name: "set-cookie", value: "b=2")
        #expect(headers["content-type"] == "text/plain")
        #expect(headers.values(for: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(headers.fields.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie"])
        #expect(headers.count == 3)
    }

    @Test("replaceOrAdd replaces in place and drops later repeats; nil removes")
    func replace() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers.replaceOrAdd(name: "a", value: "x")
        #expect(headers.fields == [HTTPHeader(name: "a", value: "x"), HTTPHeader(name: "B", value: "2")])
        headers["b"] = nil
        #expect(headers.fields == [HTTPHeader(name: "a", value: "x")])
    }

    @Test("merge replaces same-named fields and appends the rest")
    func merge() {
        var headers = HTTPHeaders([("Accept", "*/*"), ("X", "1")])
        headers.merge(HTTPHeaders([("accept", "application/json"), ("Y", "2")]))
        #expect(headers.fields.map { "\($0.name): \($0.value)" } == ["X: 1", "accept: application/json", "Y: 2"])
    }

    @Test("names must be tokens and values free of line breaks")
    func validation() throws {
        try HTTPHeaders.validate(name: "X-Custom_1.2~")
        for bad in ["", "Bad Name", "a:b", "é", "a\nb"] {
            #expect(throws: HTTPError.invalidHeaderName(bad)) { try HTTPHeaders.validate(name: bad) }
        }
        #expect(throws: HTTPError.self) { try HTTPHeaders.validate(value: "a\r\nInjected: 1", name: "X") }
        #expect(HTTPError.invalidHeaderName("Bad Name").localizedDescription.contains("'Bad Name' is not a valid header name"))
    }

    @Test("headers encode as an ordered list and decode back")
    func codable() throws {
        let headers = HTTPHeaders([("B", "1"), ("A", "2"), ("B", "3")])
        let data = try JSONEncoder().encode(headers)
        #expect(try JSONDecoder().decode(HTTPHeaders.self, from: data) == headers)
    }

    @Test("methods: common ones in any case, custom tokens kept, junk rejected")
    func methods() throws {
        #expect(try HTTPMethod(validating: "post") == .post)
        #expect(try HTTPMethod(validating: "PURGE").rawValue == "PURGE")
        #expect(throws: HTTPError.invalidMethod("GE T")) { try HTTPMethod(validating: "GE T") }
        #expect(throws: HTTPError.invalidMethod("")) { try HTTPMethod(validating: "") }
    }

    @Test("names and values are checked as a byte-by-byte reading would, for 40,000 random strings of every length")
    func checksAgreeWithPlainReading() {
        var generator = SystemRandomNumberGenerator()
        let pool: [UInt8] = Array(0...127) + [0xC3, 0xA9, 0xE2, 0x82, 0xAC]
        for round in 0..<40_000 {
            let length = round % 50
            var bytes = (0..<length).map { _ in pool.randomElement(using: &generator) ?? 0x41 }
            // Mostly clean text, as fields are, with one byte at a random place now and then.
            if round % 3 != 0 { bytes = bytes.map { HTTPMethod.isTokenByte($0) ? $0 : UInt8(ascii: "a") } }
            if round % 5 == 0, length > 0 { bytes[Int.random(in: 0..<length, using: &generator)] = [0x00, 0x0A, 0x0D, 0x20].randomElement(using: &generator) ?? 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            let token = !text.isEmpty && text.utf8.allSatisfy(HTTPMethod.isTokenByte)
            let breaks = text.utf8.contains { $0 == 0x00 || $0 == 0x0A || $0 == 0x0D }
            #expect(HTTPHeaders.isToken(text) == token, "\(bytes)")
            #expect(HTTPHeaders.holdsLineBreakOrNUL(text) == breaks, "\(bytes)")
            // The same text made again from a slice (a native string too, here on Linux).
            let sliced = String(Substring(text))
            #expect(HTTPHeaders.isToken(sliced) == token)
            #expect(HTTPHeaders.holdsLineBreakOrNUL(sliced) == breaks)
        }
    }
}
