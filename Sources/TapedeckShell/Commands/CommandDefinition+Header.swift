import Tapedeck

extension CommandDefinition {
    /// `header Name: value` adds a header sent with every request; `header unset Name` removes it.
    static let header = CommandDefinition(
        name: "header", group: .destination, place: 4,
        usage: "header Name: value | header unset Name",
        summary: "add or remove a header sent with every request",
        example: "header Authorization: Bearer {{token}}",
        save: .kept, completion: .headerOrUnset,
        secret: LineSecret(name: "[A-Za-z0-9!#$%&'*+.^_`|~-]+", separator: #"\s*:\s*"#) { name, redactor in
            redactor.headers.contains(name.lowercased())
        },
        grammar: { line throws(ParseError) in try parseHeader(&line) },
        action: { command in
            switch command {
            case .header(let name, let value):
                return { shell, _ throws(ShellError) in
                    let headerName = try shell.expand(name)
                    let headerValue = try shell.expand(value)
                    do {
                        try HTTPHeaders.validate(name: headerName)
                        try HTTPHeaders.validate(value: headerValue, name: headerName)
                    } catch {
                        throw .invalidRequest(error.localizedDescription, at: name.location)
                    }
                    shell.state.headers.replaceOrAdd(name: headerName, value: headerValue)
                    shell.state.headerNames.insert(headerName)
                    return true
                }
            case .headerUnset(let name):
                return { shell, _ throws(ShellError) in
                    shell.state.headers.remove(name: try shell.expand(name))
                    return true
                }
            default:
                return nil
            }
        })

    /// `header Name: value` (the value runs to the end of the line) or `header unset Name`.
    private static func parseHeader(_ line: inout LineParser) throws(ParseError) -> Command {
        if let first = try line.peek(), first.text == "unset", !first.quoted {
            _ = try line.word()
            return .headerUnset(try line.required("a header name"))
        }
        guard let rest = try line.rest() else {
            throw ParseError(.missingArgument(command: "header", expected: "'Name: value'"), at: line.scanner.location)
        }
        guard let colon = rest.text.firstIndex(of: ":") else {
            throw ParseError(.invalidValue(rest.text, expected: "a header; write 'header Name: value'"), at: rest.location)
        }
        let headerName = rest.text[..<colon].trimmedSpaces
        let value = rest.text[rest.text.index(after: colon)...].trimmedSpaces
        let valueOffset = rest.text.distance(from: rest.text.startIndex, to: colon) + 1
        return .header(name: Word(headerName, location: rest.location),
                       value: Word(unquote(value), quoted: true, location: rest.location.advanced(by: valueOffset)))
    }

    /// `"value"` or `'value'` without its quotes; anything else as it is.
    private static func unquote(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'", text.last == first else { return text }
        return String(text.dropFirst().dropLast())
    }
}
