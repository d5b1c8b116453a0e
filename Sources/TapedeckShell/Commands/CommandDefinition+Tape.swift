extension CommandDefinition {
    /// `tape`: where requests go, and the cassette's state.
    static let tape = CommandDefinition(
        name: "tape", group: .cassettes, place: 4,
        usage: "tape",
        summary: "show where requests go (live, recording or replaying) and the cassette's state",
        example: "tape",
        save: .skipped,
        grammar: { _ throws(ParseError) in .tape },
        action: { command in
            guard case .tape = command else { return nil }
            return { shell, _ throws(ShellError) in
                shell.describeTape()
                return true
            }
        })
}
