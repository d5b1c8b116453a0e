extension CommandDefinition {
    /// `ls [PATH]`: the OpenAPI document's paths under the current path (or PATH).
    static let ls = CommandDefinition(
        name: "ls", group: .destination, place: 3,
        usage: "ls [PATH]",
        summary: "list the OpenAPI document's paths under the current path (or PATH) with their methods; needs 'openapi FILE' first",
        example: "ls",
        save: .skipped, completion: .urlPaths,
        grammar: { line throws(ParseError) in .ls(try line.word()) },
        action: { command in
            guard case .ls(let word) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.list(word, at: location)
                return true
            }
        })
}
