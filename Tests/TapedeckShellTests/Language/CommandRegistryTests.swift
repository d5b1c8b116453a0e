import Foundation
import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("Command registry")
struct CommandRegistryTests {
    /// Lines for the shapes of ``Command`` the help examples do not show, each with the
    /// definition that parses and runs it.
    static let otherShapes: [(String, String)] = [
        ("cd", "cd"), ("ls /users", "ls"), ("openapi off", "openapi"), ("openapi", "openapi"),
        ("header unset Accept", "header"), ("query unset page", "query"), ("set n=1", "set"),
        ("get", "get"), ("PURGE /cache", "get"), ("Post /x", "post"), ("delete /x <<EOF", "delete"),
        ("expect 200", "expect"), ("show state", "show"), ("save --swift SmokeTests.swift", "save"),
        ("print", "print"), ("help", "help"), ("quit", "exit"), ("record a.json", "record"), ("replay a.json", "replay"),
    ]

    @Test("every word starts exactly one command, and is written in lower case")
    func uniqueWords() {
        let words = CommandRegistry.all.flatMap(\.words)
        #expect(Set(words).count == words.count, "a word starts two commands: \(words)")
        #expect(Set(CommandRegistry.names).count == CommandRegistry.all.count)
        for definition in CommandRegistry.all {
            for word in definition.words {
                #expect(word == word.lowercased() && !word.isEmpty && !word.contains(" "), "'\(word)'")
                #expect(CommandRegistry.definition(named: word)?.name == definition.name, "'\(word)'")
            }
        }
        #expect(Parser.commandNames == CommandRegistry.names)
    }

    @Test("every command has help: syntax starting with its name, a summary, an example and a place in a group")
    func completeHelp() throws {
        for definition in CommandRegistry.all {
            let help = definition.helpEntry
            #expect(help.name == definition.name)
            #expect(help.usage.hasPrefix(definition.name), "help \(definition.name): \(help.usage)")
            #expect(!help.summary.isEmpty && !help.brief.isEmpty, "help \(definition.name)")
            let exampleWord = help.example.split(separator: " ").first.map(String.init) ?? ""
            #expect(definition.words.contains(exampleWord), "help \(definition.name): \(help.example)")
            let detail = try #require(CommandHelp.detail(definition.name), "help \(definition.name)")
            #expect(detail == "usage:   \(help.usage)\n\(help.summary)\nexample: \(help.example)")
            #expect(CommandHelp.usage(of: definition.name) == help.usage)
        }
        for group in CommandHelp.Group.allCases {
            let places = CommandRegistry.all.filter { $0.helpEntry.group == group }.map(\.helpEntry.place).sorted()
            #expect(!places.isEmpty && places == Array(1...places.count), "\(group.title) places: \(places)")
        }
        let listed = CommandHelp.overview().split(separator: "\n").compactMap { line in
            line.hasPrefix("  ") ? line.split(separator: " ").first.map(String.init) : nil
        }
        #expect(listed.sorted() == CommandRegistry.names.sorted(), "'help' lists each command once")
    }

    @Test("every help example parses, and the definition that parsed it runs it")
    func examplesParseAndRun() throws {
        for definition in CommandRegistry.all {
            let example = definition.helpEntry.example
            let command = try #require(try Parser.parseLine(example, file: "t.tape"), "\(example)")
            #expect(CommandRegistry.resolve(command)?.definition.name == definition.name, "\(example)")
        }
    }

    @Test("every other shape of command is run by the definition that parsed it", arguments: otherShapes)
    func shapesRun(line: String, definition: String) throws {
        let source = line.contains("<<EOF") ? line + "\n{}\nEOF" : line
        let statement = try #require(try Parser.parseScript(source, file: "t.tape").first)
        #expect(CommandRegistry.resolve(statement.command)?.definition.name == definition, "\(line)")
        #expect(CommandRegistry.definition(for: statement.command)?.name == definition, "\(line)")
    }

    @Test("a line starting with no command's word names the closest one")
    func unknownWord() throws {
        #expect(throws: ParseError(.unknownCommand("xet", suggestion: "set"), at: SourceLocation(file: "t.tape", line: 1, column: 1))) {
            try Parser.parseLine("xet a = 1", file: "t.tape")
        }
        #expect(throws: ParseError(.unexpectedArgument("now", command: "quit"), at: SourceLocation(file: "t.tape", line: 1, column: 6))) {
            try Parser.parseLine("quit now", file: "t.tape")
        }
        #expect(try Parser.parseLine("help get anything", file: "t.tape") == .help("get"))
    }

    @MainActor
    @Test("the history 'save' writes keeps the commands that change the session or send a request")
    func historyKeepsWhatChangesTheSession() async throws {
        let shell = Interpreter(transport: StubTransport { _ in HTTPResponse(status: 200) }, output: .discarding,
                                options: .init(environment: [:]))
        let kept = [
            "base http://api.test", "cd /users", "header X-A: 1", "header unset X-A", "query page=2", "query unset page",
            "set a = 1", "unset a", "get /x", "expect 200", "capture s = status", "openapi", "live",
        ]
        let looked = ["headers", "vars", "show state", "history", "print hi", "help", "help get", "clear", "tape"]
        try await shell.run(source: (kept + looked).joined(separator: "\n"), file: "t.tape")
        #expect(shell.state.history == kept)
    }
}
