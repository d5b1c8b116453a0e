import Foundation
import Testing
@testable import Tapedeck

@Suite("Malformed cassettes")
struct MalformedCassetteTests {
    static let valid = """
    {
      "interactions": [
        {
          "recordedAt": "2026-01-02T10:00:00.123Z",
          "request": {"headers": [["Accept", "*/*"]], "method": "GET", "url": "http://api.test/a"},
          "response": {"body": {"base64": "AAEC"}, "headers": [], "reason": "OK", "status": 200}
        }
      ],
      "version": 1
    }
    """

    /// Writes `text` to a file and returns the error message loading it gives.
    func message(loading text: String) throws -> String {
        try message(file: "broken.cassette.json", text: text)
    }

    @Test("the valid baseline loads")
    func baseline() throws {
        #expect(try CassetteCodec.decode(Data(Self.valid.utf8)).interactions.first?.response.body == Data([0, 1, 2]))
    }

    @Test("truncated JSON names line, column, JSON path and the problem")
    func truncated() throws {
        let text = String(Self.valid.prefix(220))
        let message = try message(loading: text)
        #expect(message.contains("is not valid JSON at /interactions/0"), "\(message)")
        #expect(message.contains(":5:") || message.contains(":6:"), "\(message)")
        // Recording in any mode leaves a cassette it cannot read alone: the fix is the file.
        #expect(message.hasSuffix("fix the file by hand, or move it aside and record it again (a recording never writes over a cassette "
            + "it cannot read, in any record mode)"), "\(message)")
    }

    @Test("a method holding control characters is named escaped, so a terminal shows them as text")
    func controlCharactersInAMethod() throws {
        let message = try message(loading: Self.valid.replacingOccurrences(of: #""method": "GET""#, with: #""method": "GET\u001b]0;PWNED\u0007""#))
        #expect(message.contains("is not a valid HTTP method"), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 }, "\(message.debugDescription)")
        // And a date, as every value an error quotes from the file.
        let date = try self.message(loading: Self.valid.replacingOccurrences(of: #""recordedAt": "2026-01-02T10:00:00.123Z""#, with: #""recordedAt": "\u001b[2J""#))
        #expect(date.contains("is not an ISO-8601 date"), "\(date)")
        #expect(!date.unicodeScalars.contains { $0.value < 0x20 }, "\(date.debugDescription)")
    }

    @Test("a wrong type names the JSON path and what was expected")
    func wrongType() throws {
        let message = try message(loading: Self.valid.replacingOccurrences(of: #""status": 200"#, with: #""status": "200""#))
        #expect(message.contains("/interactions/0/response/status: expected a whole number, found a string \"200\""), "\(message)")
    }

    @Test("bad base64 names the body field")
    func badBase64() throws {
        let message = try message(loading: Self.valid.replacingOccurrences(of: "AAEC", with: "AA*C"))
        #expect(message.contains("/interactions/0/response/body/base64: invalid base64"), "\(message)")
    }

    @Test("an unknown version says which one is supported")
    func unknownVersion() throws {
        let message = try message(loading: Self.valid.replacingOccurrences(of: #""version": 1"#, with: #""version": 7"#))
        #expect(message.contains("/version: cassette format version 7 is not supported"), "\(message)")
    }

    @Test("a missing field and a bad header pair are named")
    func missingAndPairs() throws {
        let noURL = try message(loading: Self.valid.replacingOccurrences(of: #""url": "http://api.test/a""#, with: #""link": "x""#))
        #expect(noURL.contains("/interactions/0/request/url: the required field 'url' is missing"), "\(noURL)")
        let pair = try message(loading: Self.valid.replacingOccurrences(of: #"["Accept", "*/*"]"#, with: #"["Accept"]"#))
        #expect(pair.contains("/interactions/0/request/headers/0: expected a header pair"), "\(pair)")
    }

    @Test("each mistyped field is named by its JSON pointer", arguments: [
        (#""method": "GET""#, #""method": 1"#, "/interactions/0/request/method: expected a string, found a number 1"),
        (#""reason": "OK""#, #""reason": false"#, "/interactions/0/response/reason: expected a string, found a boolean false"),
        (#""recordedAt": "2026-01-02T10:00:00.123Z""#, #""recordedAt": "2026-01-02T10:00:00.123Z", "duration": "1s""#,
         "/interactions/0/duration: expected a number, found a string \"1s\""),
        (#""recordedAt": "2026-01-02T10:00:00.123Z""#, #""recordedAt": "2026-01-02T10:00:00.123Z", "recordedBy": ["a"]"#,
         "/interactions/0/recordedBy: expected a string, found an array"),
        (#""headers": []"#, #""headers": {}"#, "/interactions/0/response/headers: expected an array, found an object"),
        (#""headers": []"#, #""headers": [["Date", "x"], ["Server", 2]]"#, "/interactions/0/response/headers/1: expected a header pair"),
        (#""body": {"base64": "AAEC"}"#, #""body": {"text": 3}"#, "/interactions/0/response/body/text: expected a string, found a number 3"),
        (#""body": {"base64": "AAEC"}"#, #""body": "AAEC""#, "/interactions/0/response/body: expected a body object"),
        (#""request": {"#, #""request": {"body": [], "#, "/interactions/0/request/body: expected a body object"),
        (#""status": 200"#, #""code": 200"#, "/interactions/0/response/status: the required field 'status' is missing"),
    ])
    func mistypedLeaves(original: String, replacement: String, expected: String) throws {
        let text = Self.valid.replacingOccurrences(of: original, with: replacement)
        #expect(text != Self.valid)
        let message = try message(loading: text)
        #expect(message.contains(expected), "\(message)")
    }

    /// The error message loading `name` (written with `text`, or made a directory) gives.
    func message(file name: String, text: String?) throws -> String {
        let directory = TemporaryDirectory()
        let url = directory.file(name)
        if let text {
            try Data(text.utf8).write(to: url)
        } else {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        do {
            _ = try Cassette.load(from: url)
            Issue.record("loading \(name) succeeded")
            return ""
        } catch {
            let message = error.errorDescription ?? ""
            #expect(message.contains(url.path), "names the file: \(message)")
            return message
        }
    }

    @Test("an empty file in any format says it is empty", arguments: ["e.cassette.json", "e.har", "e.yaml"])
    func empty(_ name: String) throws {
        #expect(try message(file: name, text: "").contains("the file is empty"))
        #expect(try message(file: name, text: "\n  \n").contains("the file is empty"))
    }

    @Test("a directory instead of a file says so, not NSCocoaErrorDomain error 256")
    func directory() throws {
        let message = try message(file: "d.cassette.json", text: nil)
        #expect(message.contains("it is a directory, not a cassette file"), "\(message)")
        #expect(!message.contains("NSCocoaErrorDomain"))
    }

    @Test("a YAML cassette indented with a tab names file:line:column and says to use spaces")
    func yamlTab() throws {
        let message = try message(file: "t.yaml", text: "interactions:\n- request:\n\tmethod: GET\n")
        #expect(message.contains("t.yaml:3:1: invalid YAML: a tab indents this line"), "\(message)")
        #expect(message.contains("only spaces"), "\(message)")
    }

    @Test("a failed write names the cause: a file where a directory should be")
    func writeCause() throws {
        let directory = TemporaryDirectory()
        let blocker = directory.file("file")
        try Data("x".utf8).write(to: blocker)
        let target = blocker.appendingPathComponent("c.cassette.json")
        #expect {
            try Cassette().write(to: target)
        } throws: { error in
            let message = (error as? CassetteError)?.errorDescription ?? ""
            return message.contains("cannot write cassette \(target.path): \(blocker.path) is a file, so the directory cannot be made")
        }
    }
}
