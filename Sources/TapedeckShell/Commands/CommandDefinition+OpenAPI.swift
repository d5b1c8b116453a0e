extension CommandDefinition {
    /// `openapi FILE` loads an OpenAPI document, `openapi off` drops it, `openapi` alone names it.
    static let openapi = CommandDefinition(
        name: "openapi", group: .checks, place: 3,
        usage: "openapi FILE | openapi off | openapi",
        summary: """
            load an OpenAPI 3.0/3.1 document (YAML or JSON): 'ls' and 'cd' move over its paths, Tab completes
            its paths, parameters (name==, Name:) and body members (name=, name:=), and each response that
            breaks the document gets a warning; 'openapi off' drops it, 'openapi' alone names it
            """,
        example: "openapi api.yaml",
        save: .kept,
        filePath: { command in
            guard case .openapi(let path?) = command, path.quoted || path.text != "off" else { return nil }
            return path
        },
        grammar: { line throws(ParseError) in .openapi(try line.word()) },
        action: { command in
            guard case .openapi(let word) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.loadOpenAPI(word, at: location)
                return true
            }
        })
}
