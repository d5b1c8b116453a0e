extension CommandDefinition {
    /// `print TEXT`: the rest of the line, with `{{variables}}` expanded.
    static let print = CommandDefinition(
        name: "print", group: .checks, place: 7,
        usage: "print TEXT",
        summary: "print text, with {{variables}} expanded",
        example: "print token is {{token}}",
        save: .skipped,
        grammar: { line throws(ParseError) in .print(try line.rest()) },
        action: { command in
            guard case .print(let word) = command else { return nil }
            return { shell, _ throws(ShellError) in
                // A captured value may hold a server's control characters: shown, never obeyed.
                shell.output.line(TerminalText.visible(try word.map(shell.expand) ?? ""))
                return true
            }
        })
}
