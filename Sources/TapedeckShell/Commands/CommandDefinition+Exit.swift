extension CommandDefinition {
    /// `exit` (or `quit`): leaves the REPL or stops the script.
    static let exit = CommandDefinition(
        name: "exit", aliases: ["quit"], group: .prompt, place: 3,
        usage: "exit",
        summary: "leave the REPL or stop the script (Ctrl-D also exits)",
        example: "exit",
        save: .skipped,
        grammar: { _ throws(ParseError) in .exit },
        action: { command in
            guard case .exit = command else { return nil }
            return { _, _ throws(ShellError) in false }
        })
}
