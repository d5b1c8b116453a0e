extension CommandDefinition {
    /// `history`: the commands `save` would write, numbered.
    static let history = CommandDefinition(
        name: "history", group: .inspection, place: 2,
        usage: "history",
        summary: "list the commands 'save' would write",
        example: "history",
        save: .skipped,
        grammar: { _ throws(ParseError) in .history },
        action: { command in
            guard case .history = command else { return nil }
            return { shell, _ throws(ShellError) in
                let history = shell.state.history
                shell.output.line(history.isEmpty ? "(no history yet)" : history.enumerated().map {
                    "\($0.offset + 1)  \($0.element.replacingOccurrences(of: "\n", with: "\n    "))"
                }.joined(separator: "\n"))
                return true
            }
        })
}
