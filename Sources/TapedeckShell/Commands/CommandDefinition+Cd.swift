extension CommandDefinition {
    /// `cd PATH`, `cd ..`, `cd /`; `cd` alone goes to `/`.
    static let cd = CommandDefinition(
        name: "cd", group: .destination, place: 2,
        usage: "cd PATH | cd .. | cd /",
        summary: "move the current path relative to the base",
        example: "cd users/42",
        save: .kept, completion: .urlPaths,
        grammar: { line throws(ParseError) in
            let word = try line.word()
            // A whole URL names another server: that is the base's to change, not the path's.
            if let word, word.text.contains("://") {
                throw ParseError(.invalidValue(word.text, expected: "a path; cd moves the path under the base, so change the server with: base \(word.text)"),
                                 at: word.location)
            }
            return .cd(word)
        },
        action: { command in
            guard case .cd(let word) = command else { return nil }
            return { shell, _ throws(ShellError) in
                shell.state.changePath(try word.map(shell.expand) ?? "/")
                shell.state.paths.insert(shell.state.path)
                shell.warnOutsideOpenAPI()
                return true
            }
        })
}
