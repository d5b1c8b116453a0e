import Tapedeck

extension CommandDefinition {
    /// `query name=value` adds a query item sent with every request; `query unset name` removes it.
    static let query = CommandDefinition(
        name: "query", group: .destination, place: 6,
        usage: "query name=value | query unset name",
        summary: "add or remove a query item sent with every request",
        example: "query page=2",
        save: .kept,
        grammar: { line throws(ParseError) in try parseQuery(&line) },
        action: { command in
            switch command {
            case .query(let name, let value):
                return { shell, _ throws(ShellError) in
                    let itemName = try shell.expand(name)
                    shell.state.query.removeAll { $0.name == itemName }
                    shell.state.query.append(QueryItem(name: itemName, value: try shell.expand(value)))
                    return true
                }
            case .queryUnset(let name):
                return { shell, _ throws(ShellError) in
                    let itemName = try shell.expand(name)
                    shell.state.query.removeAll { $0.name == itemName }
                    return true
                }
            default:
                return nil
            }
        })

    /// `query name=value` or `query name==value` (the value may run on past spaces) or `query unset name`.
    private static func parseQuery(_ line: inout LineParser) throws(ParseError) -> Command {
        let first = try line.required("'name=value'")
        if first.text == "unset", !first.quoted { return .queryUnset(try line.required("a query item name")) }
        guard let equals = first.text.firstIndex(of: "=") else {
            throw ParseError(.invalidValue(first.text, expected: "a query item; write 'query name=value'"), at: first.location)
        }
        var afterEquals = first.text.index(after: equals)
        // `query v==1`, as a request item writes it, is v=1 too.
        if !first.quoted, afterEquals < first.text.endIndex, first.text[afterEquals] == "=" { afterEquals = first.text.index(after: afterEquals) }
        var value = String(first.text[afterEquals...])
        if let more = try line.rest() { value += " " + more.text }
        return .query(name: Word(String(first.text[..<equals]), location: first.location),
                      value: Word(value, quoted: first.quoted, location: first.location))
    }
}
