import Foundation
import Testing
import Tapedeck
@testable import TapedeckShell

@Suite("Command-line request words")
struct CommandLineRequestTests {
    @Test("the first word is a method only when it looks like one", arguments: [
        (["example.org"], nil, "example.org", [String]()),
        (["localhost", "a=1"], nil, "localhost", ["a=1"]),
        (["get", ":8080/x"], "GET", ":8080/x", []),
        (["POST", "localhost:5000/x", "a=1"], "POST", "localhost:5000/x", ["a=1"]),
        (["PURGE", "h/x"], "PURGE", "h/x", []),
        (["FROB", "h/x"], "FROB", "h/x", []),
        ([":8080/x", "Accept:text/plain"], nil, ":8080/x", ["Accept:text/plain"]),
    ] as [([String], String?, String, [String])])
    func split(_ words: [String], _ method: String?, _ url: String, _ items: [String]) throws {
        let request = try CommandLineRequest.split(words)
        #expect(request.method?.rawValue == method)
        #expect(request.url == url)
        #expect(request.items == items)
    }

    @Test("a method name alone is a missing URL, not a host", arguments: ["GET", "POST", "DELETE", "PURGE"])
    func methodAlone(_ word: String) throws {
        #expect(throws: CommandLineRequestError.missingURL) { try CommandLineRequest.split([word]) }
        #expect(try CommandLineRequest.split(["get"]).url == "get")
    }

    @Test("near misses of a method are typos with a suggestion", arguments: [
        ("GTE", "GET"), ("POTS", "POST"), ("delet", "DELETE"), ("PACTH", "PATCH"),
    ])
    func typos(_ word: String, _ suggestion: String) {
        #expect(throws: CommandLineRequestError.unknownMethod(word, suggestion: suggestion)) {
            try CommandLineRequest.split([word, ":8080/x"])
        }
    }

    @Test("no words at all is a missing URL with an example")
    func missing() {
        #expect(throws: CommandLineRequestError.missingURL) { try CommandLineRequest.split([]) }
        #expect(CommandLineRequestError.missingURL.localizedDescription.contains("tapedeck :8080/get"))
    }

    @Test("HTTPie URL shorthands expand", arguments: [
        (":8080/get", "http://localhost:8080/get"), (":/x", "http://localhost/x"), (":", "http://localhost"),
        ("example.org/x", "http://example.org/x"), ("localhost:5000", "http://localhost:5000"),
        ("https://h/x", "https://h/x"), ("//h/x", "http://h/x"),
    ])
    func shorthand(_ input: String, _ expected: String) throws {
        #expect(URLShorthand.expand(input) == expected)
        #expect(try URLShorthand.parse(input).absoluteString == expected)
    }

    @Test("a bad URL error names the input as typed")
    func badURL() {
        do {
            _ = try URLShorthand.parse(":99999/x")
            Issue.record("expected an error")
        } catch {
            #expect(error.localizedDescription.contains("':99999/x'"))
        }
    }
}
