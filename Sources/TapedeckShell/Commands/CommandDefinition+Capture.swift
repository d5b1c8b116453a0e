extension CommandDefinition {
    /// `capture NAME = QUERY`: part of the last response into a variable.
    static let capture = CommandDefinition(
        name: "capture", group: .checks, place: 2,
        usage: "capture NAME = QUERY",
        summary: "store part of the last response in a variable",
        example: "capture origin = json $.origin",
        save: .kept, completion: .responseQuery,
        grammar: { line throws(ParseError) in
            let variable = try line.variableName(try line.required("a variable name"))
            if let next = try line.peek(), next.text == "=", !next.quoted { _ = try line.word() }
            let query = try AssertionParser.query(&line.scanner, command: "capture")
            return .capture(name: variable, query: query)
        },
        action: { command in
            guard case .capture(let name, let query) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.capture(name, query, at: location)
                return true
            }
        })
}
