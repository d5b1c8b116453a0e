extension CommandDefinition {
    /// `live`: requests go to the network again, and a cassette being recorded is saved.
    static let live = CommandDefinition(
        name: "live", group: .cassettes, place: 3,
        usage: "live",
        summary: "send requests to the network again (saves a cassette being recorded)",
        example: "live",
        save: .keptExceptInSwift,
        grammar: { _ throws(ParseError) in .live },
        action: { command in
            guard case .live = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.goLive(at: location)
                return true
            }
        })
}
