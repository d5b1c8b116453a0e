import Foundation
import Tapedeck
import TapedeckShell

/// One reader or parser under fuzzing: a name (also its corpus folder) and what to do with an
/// input. A target must return (with a value or an error) for every input: a crash, a trap
/// or a hang is the failure the driver looks for.
public struct FuzzTarget: Sendable {
    /// The name, e.g. `yaml`; the corpus is `Tests/Fuzz/corpus/<name>/`.
    public var name: String
    /// Byte strings the mutator splices in (keywords, separators, nesting openers).
    public var dictionary: [String]
    /// Runs one input; true when it was accepted, false when it was rejected with an error.
    public var run: @MainActor @Sendable (Data) async -> Bool

    /// Creates a target.
    public init(name: String, dictionary: [String], run: @escaping @MainActor @Sendable (Data) async -> Bool) {
        self.name = name
        self.dictionary = dictionary
        self.run = run
    }

    /// Every target, in the order `make fuzz` runs them.
    public static let all: [FuzzTarget] = [lineParser, jsonPath, template, json, yaml, har]

    /// The script parser: lines, heredocs, quoting, items, flags, `{{…}}` checking.
    public static let lineParser = FuzzTarget(
        name: "parser",
        dictionary: ["get ", "post ", "expect ", "capture ", "header ", "set ", "<<EOF\n", "\nEOF\n", "{{", "}}", "==", ":=", "=@",
                     "'", "\"", "\\", " --timeout ", " --raw ", "#", "\n", "json $.", "[?(@.", "]"]
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        do {
            _ = try Parser.parseScript(text, file: "fuzz.tape")
            return true
        } catch {
            if error.localizedDescription.isEmpty { FuzzFailure.record(.emptyMessage, input: data) }
            return false
        }
    }

    /// JSONPath compilation, and evaluation of what compiles against a small document.
    public static let jsonPath = FuzzTarget(
        name: "jsonpath",
        dictionary: ["$", ".", "..", "[", "]", "*", "?(", "@.", " == ", " != ", "<", "'", "\"", "-1", ":", ",", "(", ")", "null", "true"]
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        do {
            let path = try JSONPath(text)
            _ = path.select(in: FuzzTarget.document)
            _ = path.evaluate(on: FuzzTarget.document)
            return true
        } catch {
            return false
        }
    }

    /// `{{name}}` checking and expansion, through `print` in a real interpreter.
    public static let template = FuzzTarget(
        name: "template",
        dictionary: ["{{", "}}", "{", "}", "a", "env.", "HOME", "-", ".", "_", "é", " ", "{{a}}", "{{ a }}"]
    ) { data in
        var text = String(decoding: data, as: UTF8.self)
        text = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        _ = Template.names(in: text)
        do {
            _ = try await FuzzTarget.shell.run(source: "print \(text)", file: "fuzz.tape")
            return true
        } catch {
            return false
        }
    }

    /// Tapedeck's own JSON parser, and the byte-exact round trip of what it accepts.
    public static let json = FuzzTarget(
        name: "json",
        dictionary: ["{", "}", "[", "]", "\"", "\\u", "\\ud83d", ":", ",", "-", "0", "1e400", ".5", "true", "null", "\u{FEFF}"]
    ) { data in
        do {
            let value = try JSONParser.parse(data)
            let written: String = JSONWriter.write(value, options: [])
            let again = try JSONParser.parse(written)
            return again == value || FuzzTarget.failRoundTrip(data)
        } catch {
            return false
        }
    }

    /// The vcrpy YAML cassette reader (Yams behind a nesting pre-scan, then the YAML cursor).
    public static let yaml = FuzzTarget(
        name: "yaml",
        dictionary: ["interactions:\n", "- request:\n", "    ", "  ", "- ", "[", "{", "]", "}", ": ", "'", "\"", "!!binary ", "|\n",
                     "&a ", "*a", "status: {code: 200}", "uri: http://h/", "method: GET", "\n", "#"]
    ) { data in
        do {
            _ = try VCRCassetteReader.read(data, file: "fuzz.yaml", defaultDate: Date(timeIntervalSince1970: 0))
            return true
        } catch {
            return false
        }
    }

    /// The HAR 1.2 reader and the native cassette reader.
    public static let har = FuzzTarget(
        name: "har",
        dictionary: ["{\"log\":", "\"entries\":", "[", "]", "{", "}", "\"request\":", "\"response\":", "\"url\":", "\"status\":",
                     "\"text\":", "\"encoding\":\"base64\"", "\"interactions\":", ",", "\"", "null", "200"]
    ) { data in
        var accepted = false
        if (try? HARReader.read(data, file: "fuzz.har")) != nil { accepted = true }
        if (try? Cassette.decode(data, format: .native, file: "fuzz.cassette.json")) != nil { accepted = true }
        return accepted
    }

    /// One interpreter for every template input (`print` changes no state), with `a` and `b.c` set.
    @MainActor static let shell: Interpreter = {
        let shell = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) },
                                output: ShellOutput { _ in }, options: .init(environment: ["HOME": "/home/fuzz"]))
        shell.state.variables = ["a": "A", "b.c": "B"]
        return shell
    }()

    /// The document JSONPath inputs are evaluated against.
    static let document: JSONValue = (try? JSONParser.parse(
        #"{"a":[1,{"b":"c","d":[true,null,2.5]},[3,[4]]],"e":{"f":{"g":"h"}},"items":[{"id":1,"name":"x"},{"id":2}]}"#
    )) ?? .null

    /// A parsed-then-written value that parses to something else: the round trip broke.
    static func failRoundTrip(_ data: Data) -> Bool {
        FuzzFailure.record(.roundTrip, input: data)
        return false
    }
}
