extension CommandDefinition {
    /// `show request|response|headers|curl|state`: the last exchange or the session.
    static let show = CommandDefinition(
        name: "show", group: .inspection, place: 1,
        usage: "show request|response|headers|curl|state",
        summary: "inspect the last exchange or the session; 'show curl' prints an equivalent curl command",
        example: "show curl",
        save: .skipped, completion: .keywords(Command.ShowTarget.allCases.map(\.rawValue)),
        grammar: { line throws(ParseError) in .show(try line.keyword(Command.ShowTarget.self, kind: "show target")) },
        action: { command in
            guard case .show(let target) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.show(target, at: location)
                return true
            }
        })
}
