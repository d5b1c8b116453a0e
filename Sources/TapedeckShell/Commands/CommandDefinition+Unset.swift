extension CommandDefinition {
    /// `unset name`: removes a variable; one given with `--var` stays in a script.
    static let unset = CommandDefinition(
        name: "unset", group: .checks, place: 5,
        usage: "unset name",
        summary: "remove a variable",
        example: "unset user",
        save: .kept,
        grammar: { line throws(ParseError) in .unset(try line.variableName(try line.required("a variable name"))) },
        action: { command in
            guard case .unset(let name) = command else { return nil }
            return { shell, location throws(ShellError) in
                if !shell.keepsFixed(name, at: location) { shell.state.variables[name] = nil }
                return true
            }
        })
}
