/// Parses the words of one line into a command (the heredoc body is read by ``Parser``).
struct LineParser {
    private var scanner: LineScanner
    private let name: String
    private let start: SourceLocation

    static func parse(_ line: String, at start: SourceLocation) throws(ParseError) -> ParsedLine? {
        var scanner = LineScanner(line, start: start)
        guard let first = try scanner.word() else { return nil }
        var parser = LineParser(scanner: scanner, name: first.text, start: first.location)
        return try parser.command(first)
    }

    private init(scanner: LineScanner, name: String, start: SourceLocation) {
        self.scanner = scanner
        self.name = name
        self.start = start
    }

    private mutating func command(_ first: Word) throws(ParseError) -> ParsedLine {
        let lowered = first.text.lowercased()
        var heredoc: Word?
        let command: Command
        switch lowered {
        case "base": command = .base(try required("a URL"))
        case "cd": command = .cd(try scanner.word())
        case "ls": command = .ls(try scanner.word())
        case "openapi": command = .openapi(try scanner.word())
        case "header": command = try header()
        case "headers": command = .headers
        case "query": command = try query()
        case "set": command = try set()
        case "unset": command = .unset(try variableName(try required("a variable name")))
        case "vars": command = .vars
        case "expect": command = .expect(try AssertionParser.assertion(&scanner, start: start))
        case "capture": command = try capture()
        case "show": command = .show(try keyword(Command.ShowTarget.self, kind: "show target"))
        case "history": command = .history
        case "save":
            let first = try required("a file path")
            command = !first.quoted && first.text == "--swift" ? .saveSwift(try required("a Swift file path after --swift")) : .save(first)
        case "include": command = .include(try required("a file path"))
        case "print": command = .print(try scanner.rest())
        case "help": command = .help(try helpTopic())
        case "exit", "quit": command = .exit
        case "record": command = try record()
        case "replay": command = try replay()
        case "live": command = .live
        case "tape": command = .tape
        case "clear": command = .clear
        default:
            if Parser.methodNames.contains(lowered) || Self.isCustomMethod(first) {
                let request = try RequestParser.parse(&scanner, method: first.text.uppercased())
                heredoc = request.heredoc
                command = .request(request.command)
            } else {
                let suggestion = Suggestion.closest(to: first.text, in: Parser.commandNames)
                throw ParseError(.unknownCommand(first.text, suggestion: suggestion), at: first.location)
            }
        }
        if case .print = command {} else if case .help = command {} else { try finish() }
        return ParsedLine(command: command, location: start, heredoc: heredoc)
    }

    /// `help [COMMAND]`; an unknown topic is reported where it was typed.
    private mutating func helpTopic() throws(ParseError) -> String? {
        guard let word = try scanner.word() else { return nil }
        let topic = word.text.lowercased()
        guard CommandHelp.detail(topic) != nil else {
            throw ParseError(.unknownCommand(word.text, suggestion: Suggestion.closest(to: topic, in: Parser.commandNames)), at: word.location)
        }
        return topic
    }

    /// `PURGE /cache`: an all-capitals token of letters is a custom method.
    private static func isCustomMethod(_ word: Word) -> Bool {
        !word.quoted && word.text.count >= 3 && word.text.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    private mutating func required(_ expected: String) throws(ParseError) -> Word {
        guard let word = try scanner.word() else {
            throw ParseError(.missingArgument(command: name.lowercased(), expected: expected), at: scanner.location)
        }
        return word
    }

    private mutating func finish() throws(ParseError) {
        if let extra = try scanner.word() {
            throw ParseError(.unexpectedArgument(extra.text, command: name.lowercased()), at: extra.location)
        }
    }

    private mutating func keyword<T: RawRepresentable & CaseIterable>(_ type: T.Type, kind: String) throws(ParseError) -> T where T.RawValue == String {
        let word = try required("a \(kind) (\(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        guard let value = T(rawValue: word.text.lowercased()) else {
            throw ParseError.unknown(word.text, kind: kind, valid: T.allCases.map(\.rawValue), at: word.location)
        }
        return value
    }

    private func variableName(_ word: Word) throws(ParseError) -> String {
        guard Template.isValidName(word.text), !word.text.hasPrefix("env.") else {
            throw ParseError(.invalidValue(word.text, expected: "a variable name (letters, digits, '_', '-', '.'; not env.*)"), at: word.location)
        }
        return word.text
    }

    private mutating func header() throws(ParseError) -> Command {
        if let first = try scanner.peek(), first.text == "unset", !first.quoted {
            _ = try scanner.word()
            return .headerUnset(try required("a header name"))
        }
        guard let rest = try scanner.rest() else {
            throw ParseError(.missingArgument(command: "header", expected: "'Name: value'"), at: scanner.location)
        }
        guard let colon = rest.text.firstIndex(of: ":") else {
            throw ParseError(.invalidValue(rest.text, expected: "a header; write 'header Name: value'"), at: rest.location)
        }
        let headerName = rest.text[..<colon].trimmedSpaces
        let value = rest.text[rest.text.index(after: colon)...].trimmedSpaces
        let valueOffset = rest.text.distance(from: rest.text.startIndex, to: colon) + 1
        return .header(name: Word(headerName, location: rest.location),
                       value: Word(Self.unquote(value), quoted: true, location: rest.location.advanced(by: valueOffset)))
    }

    private mutating func query() throws(ParseError) -> Command {
        let first = try required("'name=value'")
        if first.text == "unset", !first.quoted { return .queryUnset(try required("a query item name")) }
        guard let equals = first.text.firstIndex(of: "=") else {
            throw ParseError(.invalidValue(first.text, expected: "a query item; write 'query name=value'"), at: first.location)
        }
        var value = String(first.text[first.text.index(after: equals)...])
        if let more = try scanner.rest() { value += " " + more.text }
        return .query(name: Word(String(first.text[..<equals]), location: first.location),
                      value: Word(value, quoted: first.quoted, location: first.location))
    }

    private mutating func set() throws(ParseError) -> Command {
        let first = try required("'name = value'")
        var variable = first.text
        var inline: String?
        if let equals = first.text.firstIndex(of: "="), !first.quoted {
            variable = String(first.text[..<equals])
            let after = String(first.text[first.text.index(after: equals)...])
            if !after.isEmpty { inline = after }
        } else if let next = try scanner.peek(), next.text == "=", !next.quoted {
            _ = try scanner.word()
        }
        let variableName = try variableName(Word(variable, location: first.location))
        if let inline {
            var value = inline
            if let more = try scanner.rest() { value += " " + more.text }
            return .set(name: variableName, value: Word(value, location: first.location))
        }
        let value = try scanner.rest() ?? Word("", quoted: true, location: scanner.location)
        return .set(name: variableName, value: value)
    }

    private mutating func capture() throws(ParseError) -> Command {
        let variable = try variableName(try required("a variable name"))
        if let next = try scanner.peek(), next.text == "=", !next.quoted { _ = try scanner.word() }
        let query = try AssertionParser.query(&scanner, command: "capture")
        return .capture(name: variable, query: query)
    }

    private mutating func record() throws(ParseError) -> Command {
        let path = try required("a cassette path")
        var mode: Word?
        if let flag = try scanner.word() {
            if flag.text == "--mode" {
                mode = try required("a record mode (once, new, all, none)")
            } else if flag.text.hasPrefix("--mode=") {
                mode = Word(String(flag.text.dropFirst(7)), location: flag.location.advanced(by: 7))
            } else {
                throw ParseError.unknown(flag.text, kind: "option", valid: ["--mode"], at: flag.location)
            }
        }
        if let mode, !["once", "new", "all", "none"].contains(mode.text), !mode.text.contains("{{") {
            throw ParseError.unknown(mode.text, kind: "record mode", valid: ["once", "new", "all", "none"], at: mode.location)
        }
        return .record(path, mode: mode)
    }

    private mutating func replay() throws(ParseError) -> Command {
        let path = try required("a cassette path")
        guard let flag = try scanner.word() else { return .replay(path, repeats: false) }
        guard flag.text == "--repeat" else { throw ParseError.unknown(flag.text, kind: "option", valid: ["--repeat"], at: flag.location) }
        return .replay(path, repeats: true)
    }

    private static func unquote(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }
}
