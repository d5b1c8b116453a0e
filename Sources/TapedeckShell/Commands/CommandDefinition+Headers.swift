extension CommandDefinition {
    /// `headers`: the persistent headers.
    static let headers = CommandDefinition(
        name: "headers", group: .destination, place: 5,
        usage: "headers",
        summary: "list the persistent headers",
        example: "headers",
        save: .skipped,
        grammar: { _ throws(ParseError) in .headers },
        action: { command in
            guard case .headers = command else { return nil }
            return { shell, _ throws(ShellError) in
                let headers = shell.state.headers
                shell.output.line(headers.isEmpty ? "(no persistent headers)" : headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n"))
                return true
            }
        })
}
