extension CommandDefinition {
    /// `base URL`: where requests go, HTTPie's shorthands allowed (`:8080/api`); the path
    /// goes back to `/`.
    static let base = CommandDefinition(
        name: "base", group: .destination, place: 1,
        usage: "base URL",
        summary: "set the base URL (scheme, host, optional path; as in HTTPie, :8080/api means http://localhost:8080/api and a URL without a scheme gets http://)",
        example: "base http://localhost:8080/api",
        save: .kept,
        grammar: { line throws(ParseError) in .base(try line.required("a URL")) },
        action: { command in
            guard case .base(let word) = command else { return nil }
            return { shell, _ throws(ShellError) in
                let text = try shell.expand(word)
                do {
                    // HTTPie's shorthands, as on the command line: `:8080`, `localhost:8080/api`.
                    shell.state.base = try URLShorthand.parse(text)
                } catch {
                    throw .invalidRequest(error.localizedDescription, at: word.location)
                }
                shell.state.path = "/"
                return true
            }
        })
}
