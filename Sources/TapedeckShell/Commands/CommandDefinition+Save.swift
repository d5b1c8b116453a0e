extension CommandDefinition {
    /// `save PATH` writes the session's kept commands as a `.tape` script; `save --swift FILE`
    /// writes a Swift Testing file replaying its cassette.
    static let save = CommandDefinition(
        name: "save", group: .inspection, place: 3,
        usage: "save PATH · save --swift FILE.swift",
        summary: "write this session's successful commands as a runnable .tape script; --swift writes a Swift Testing file replaying its cassette",
        example: "save Sessions/explore.tape",
        save: .skipped, completion: .files,
        grammar: { line throws(ParseError) in
            let first = try line.required("a file path")
            return !first.quoted && first.text == "--swift" ? .saveSwift(try line.required("a Swift file path after --swift")) : .save(first)
        },
        action: { command in
            switch command {
            case .save(let word):
                return { shell, _ throws(ShellError) in
                    try shell.save(to: try shell.expand(word), at: word.location)
                    return true
                }
            case .saveSwift(let word):
                return { shell, _ throws(ShellError) in
                    try await shell.saveSwift(to: try shell.expand(word), at: word.location)
                    return true
                }
            default:
                return nil
            }
        })
}
