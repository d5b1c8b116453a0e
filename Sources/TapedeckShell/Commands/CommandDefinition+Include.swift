extension CommandDefinition {
    /// `include PATH`: another script, run here.
    static let include = CommandDefinition(
        name: "include", group: .inspection, place: 4,
        usage: "include PATH",
        summary: "run another script here (relative to this script's folder)",
        example: "include login.tape",
        save: .kept, completion: .files,
        filePath: { command in
            guard case .include(let path) = command else { return nil }
            return path
        },
        grammar: { line throws(ParseError) in .include(try line.required("a file path")) },
        action: { command in
            guard case .include(let word) = command else { return nil }
            return { shell, _ throws(ShellError) in try await shell.include(word) }
        })
}
