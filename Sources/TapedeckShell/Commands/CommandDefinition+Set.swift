extension CommandDefinition {
    /// `set name = value`: a variable, used as `{{name}}`; one given with `--var` stays in a script.
    static let set = CommandDefinition(
        name: "set", group: .checks, place: 4,
        usage: "set name = value",
        summary: "set a variable, used as {{name}}",
        example: "set user = ada",
        save: .kept,
        // `set token = …` and `set token …` alike.
        secret: LineSecret(name: "[A-Za-z0-9_.-]+", separator: #"\s*=\s*|\s+"#) { name, redactor in
            CommandRedaction.isCredentialName(name, redactor)
        },
        grammar: { line throws(ParseError) in try parseSet(&line) },
        action: { command in
            guard case .set(let name, let value) = command else { return nil }
            return { shell, location throws(ShellError) in
                if !shell.keepsFixed(name, at: location) { shell.state.variables[name] = try shell.expand(value) }
                return true
            }
        })

    /// `set name = value`, `set name=value` or `set name value`; the value runs to the end of the line.
    private static func parseSet(_ line: inout LineParser) throws(ParseError) -> Command {
        let first = try line.required("'name = value'")
        var variable = first.text
        var inline: String?
        if let equals = first.text.firstIndex(of: "="), !first.quoted {
            variable = String(first.text[..<equals])
            let after = String(first.text[first.text.index(after: equals)...])
            if !after.isEmpty { inline = after }
        } else if let next = try line.peek(), next.text == "=", !next.quoted {
            _ = try line.word()
        }
        let variableName = try line.variableName(Word(variable, location: first.location))
        if let inline {
            var value = inline
            if let more = try line.rest() { value += " " + more.text }
            return .set(name: variableName, value: Word(value, location: first.location))
        }
        let value = try line.rest() ?? Word("", quoted: true, location: line.scanner.location)
        return .set(name: variableName, value: value)
    }
}
