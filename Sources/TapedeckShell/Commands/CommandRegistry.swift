/// Every command of the language: the one list the parser, `help`, Tab completion, `save`,
/// redaction and the interpreter read (each ``CommandDefinition`` says the rest).
enum CommandRegistry {
    /// Every command, in the order ``Parser/commandNames`` lists them: of two command words
    /// equally close to a mistyped one, the earlier is suggested.
    static let all: [CommandDefinition] = [
        .base, .cd, .ls, .openapi, .header, .headers, .query, .set, .unset, .vars,
        .get, .post, .put, .patch, .delete, .head, .options,
        .expect, .capture, .show, .history, .save, .include, .print, .help, .exit,
        .record, .replay, .live, .tape, .clear,
    ]

    /// Every command name, in registry order.
    static let names = all.map(\.name)

    /// The definitions by every word that starts one (names and aliases); the first
    /// definition wins a word two claim, which the registry's tests rule out.
    private static let byWord: [String: CommandDefinition] = {
        var table: [String: CommandDefinition] = [:]
        for definition in all {
            for word in definition.words where table[word] == nil { table[word] = definition }
        }
        return table
    }()

    /// The command `word` (lower-case) starts, by name or alias.
    static func definition(named word: String) -> CommandDefinition? {
        byWord[word]
    }

    /// The definition that parsed `command`.
    static func definition(for command: Command) -> CommandDefinition? {
        all.first { $0.action(command) != nil }
    }

    /// The definition that parsed `command`, with how to run it.
    static func resolve(_ command: Command) -> (definition: CommandDefinition, action: CommandDefinition.Action)? {
        for definition in all {
            if let action = definition.action(command) { return (definition, action) }
        }
        return nil
    }
}
