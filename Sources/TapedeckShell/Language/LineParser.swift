/// Parses the words of one line into a command (the heredoc body is read by ``Parser``): the
/// first word picks a ``CommandDefinition`` from ``CommandRegistry``, whose grammar reads the
/// rest with the helpers here.
struct LineParser {
    /// The words after the command word.
    var scanner: LineScanner
    /// The command word as typed (`GET`, `quit`).
    let name: String
    /// Where the command word starts.
    let start: SourceLocation
    /// The heredoc delimiter of a request line (`<<EOF`), whose body ``Parser`` reads next.
    var heredoc: Word?
    /// Whether words after what the grammar read are ignored rather than reported.
    private var ignoresRest = false

    /// The command on `line`, whose first character is at `start`; nil for a blank or comment line.
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
        let definition: CommandDefinition
        if let named = CommandRegistry.definition(named: first.text.lowercased()) {
            definition = named
        } else if Self.isCustomMethod(first) {
            // A method with no command word of its own parses (and runs) as `get` does.
            definition = .get
        } else {
            let suggestion = Suggestion.closest(to: first.text, in: CommandRegistry.names)
            throw ParseError(.unknownCommand(first.text, suggestion: suggestion), at: first.location)
        }
        let command = try definition.grammar(&self)
        if !ignoresRest { try finish() }
        return ParsedLine(command: command, location: start, heredoc: heredoc)
    }

    /// `PURGE /cache`: an all-capitals token of letters is a custom method.
    private static func isCustomMethod(_ word: Word) -> Bool {
        !word.quoted && word.text.count >= 3 && word.text.allSatisfy { $0.isASCII && $0.isUppercase }
    }

    /// The next word, or nil at the end of the line.
    mutating func word() throws(ParseError) -> Word? {
        try scanner.word()
    }

    /// The next word without consuming it.
    func peek() throws(ParseError) -> Word? {
        try scanner.peek()
    }

    /// The rest of the line as one word (see ``LineScanner/rest()``).
    mutating func rest() throws(ParseError) -> Word? {
        try scanner.rest()
    }

    /// The next word; its absence is reported as the command missing `expected`.
    mutating func required(_ expected: String) throws(ParseError) -> Word {
        guard let word = try scanner.word() else {
            throw ParseError(.missingArgument(command: name.lowercased(), expected: expected), at: scanner.location)
        }
        return word
    }

    /// Leaves the words after what was read unchecked (`help get anything`).
    mutating func ignoreRest() {
        ignoresRest = true
    }

    private mutating func finish() throws(ParseError) {
        if let extra = try scanner.word() {
            throw ParseError(.unexpectedArgument(extra.text, command: name.lowercased()), at: extra.location)
        }
    }

    /// The next word as one of `T`'s cases, named `kind` in errors.
    mutating func keyword<T: RawRepresentable & CaseIterable>(_ type: T.Type, kind: String) throws(ParseError) -> T where T.RawValue == String {
        let word = try required("a \(kind) (\(T.allCases.map(\.rawValue).joined(separator: ", ")))")
        guard let value = T(rawValue: word.text.lowercased()) else {
            throw ParseError.unknown(word.text, kind: kind, valid: T.allCases.map(\.rawValue), at: word.location)
        }
        return value
    }

    /// `word` as a variable name that `set`, `unset` and `capture` may assign.
    func variableName(_ word: Word) throws(ParseError) -> String {
        guard Template.isValidName(word.text), !word.text.hasPrefix("env.") else {
            throw ParseError(.invalidValue(word.text, expected: "a variable name (letters, digits, '_', '-', '.'; not env.*)"), at: word.location)
        }
        return word.text
    }
}
