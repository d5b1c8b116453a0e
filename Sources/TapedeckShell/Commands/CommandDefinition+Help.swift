extension CommandDefinition {
    /// `help [COMMAND]`: the overview, or one command's syntax and example.
    static let help = CommandDefinition(
        name: "help", group: .prompt, place: 1,
        usage: "help [COMMAND]",
        summary: "list the commands, or show one command's syntax and an example",
        example: "help expect",
        save: .skipped, completion: .commandNames,
        grammar: { line throws(ParseError) in
            // Words after the topic are not checked.
            line.ignoreRest()
            guard let word = try line.word() else { return .help(nil) }
            let topic = word.text.lowercased()
            guard CommandHelp.detail(topic) != nil else {
                // An unknown topic is reported where it was typed.
                throw ParseError(.unknownCommand(word.text, suggestion: Suggestion.closest(to: topic, in: CommandRegistry.names)), at: word.location)
            }
            return .help(topic)
        },
        action: { command in
            guard case .help(let topic) = command else { return nil }
            return { shell, location throws(ShellError) in
                guard let topic else {
                    shell.output.line(CommandHelp.overview())
                    return true
                }
                guard let detail = CommandHelp.detail(topic) else {
                    throw .parse(ParseError(.unknownCommand(topic, suggestion: Suggestion.closest(to: topic, in: CommandRegistry.names)), at: location))
                }
                shell.output.line(detail)
                return true
            }
        })
}
