extension CommandDefinition {
    /// `vars`: the variables, marking those given with `--var` or `--env-file`.
    static let vars = CommandDefinition(
        name: "vars", group: .checks, place: 6,
        usage: "vars",
        summary: "list the variables",
        example: "vars",
        save: .skipped,
        grammar: { _ throws(ParseError) in .vars },
        action: { command in
            guard case .vars = command else { return nil }
            return { shell, _ throws(ShellError) in
                let variables = shell.state.variables
                // A captured value may hold a server's control characters: shown, never obeyed.
                shell.output.line(TerminalText.visible(variables.isEmpty ? "(no variables)" : variables.sorted { $0.key < $1.key }.map {
                    "\($0.key) = \($0.value)" + (shell.fixedVariables.contains($0.key) ? "  (from --var/--env-file)" : "")
                }.joined(separator: "\n")))
                return true
            }
        })
}
