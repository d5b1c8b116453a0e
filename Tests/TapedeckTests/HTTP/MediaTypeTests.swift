import Foundation
import Testing
@testable import Tapedeck

@Suite("Media types")
struct MediaTypeTests {
    @Test("the essence is the type and subtype, lower-cased, without parameters or spaces", arguments: [
        ("application/json", "application/json"),
        ("text/html", "text/html"),
        ("application/problem+json", "application/problem+json"),
        ("Application/JSON", "application/json"),
        ("text/html; charset=utf-8", "text/html"),
        ("text/html;charset=utf-8", "text/html"),
        (" text/plain ", "text/plain"),
        ("\ttext/plain\r\n", "text/plain"),
        ("TEXT/Event-Stream; charset=UTF-8", "text/event-stream"),
        ("", ""),
        (";", ""),
        ("téxt/plain", "téxt/plain"),
        ("TÉXT/plain", "téxt/plain"),
    ])
    func essence(contentType: String, expected: String) {
        #expect(MediaType.essence(contentType) == expected)
    }

    @Test("JSON is known by its essence, whatever its case and parameters", arguments: [
        ("application/json", true), ("Application/JSON; charset=utf-8", true), ("application/vnd.api+json", true),
        ("text/json", true), ("text/plain", false), ("application/jsonl", false), ("", false),
    ])
    func json(contentType: String, isJSON: Bool) {
        #expect(MediaType.isJSON(contentType) == isJSON)
    }
}
