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
                shell.output.line(try word.map(shell.expand) ?? "")
                return true
            }
        })
}
