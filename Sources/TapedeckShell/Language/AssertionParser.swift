import Tapedeck

/// Parses `expect` arguments and the query of `capture`.
enum AssertionParser {
    static func assertion(_ scanner: inout LineScanner, start: SourceLocation) throws(ParseError) -> Assertion {
        guard let first = try scanner.peek() else {
            throw ParseError(.missingArgument(command: "expect", expected: "a status code or a query (\(ResponseQuery.keywords.joined(separator: ", ")))"), at: scanner.location)
        }
        if !first.quoted, first.text.count == 3, first.text.allSatisfy(\.isNumber) {
            _ = try scanner.word()
            return Assertion(query: .status, predicate: .compare(.equal, first))
        }
        let query = try self.query(&scanner, command: "expect")
        var negated = false
        guard var word = try scanner.word() else { return Assertion(query: query, predicate: .exists) }
        if word.text == "not", !word.quoted {
            negated = true
            guard let next = try scanner.word() else {
                throw ParseError(.missingArgument(command: "expect", expected: "a predicate after 'not' (e.g. not exists)"), at: scanner.location)
            }
            word = next
        }
        let predicate = try self.predicate(word, &scanner, jsonQuery: query.readsJSON)
        return Assertion(query: query, predicate: predicate, negated: negated)
    }

    static func query(_ scanner: inout LineScanner, command: String) throws(ParseError) -> ResponseQuery {
        guard let word = try scanner.word() else {
            throw ParseError(.missingArgument(command: command, expected: "a query (\(ResponseQuery.keywords.joined(separator: ", ")))"), at: scanner.location)
        }
        switch word.text.lowercased() {
        case "status": return .status
        case "body": return .body
        case "duration": return .duration
        case "url": return .url
        case "header":
            guard let name = try scanner.word() else {
                throw ParseError(.missingArgument(command: command, expected: "a header name after 'header'"), at: scanner.location)
            }
            return .header(name)
        case "json":
            return .json(try jsonPath(&scanner, command: command, example: "$.items[0].id"))
        case "regex":
            guard let pattern = try scanner.word() else {
                throw ParseError(.missingArgument(command: command, expected: "a pattern after 'regex' (e.g. regex \"id=(\\d+)\")"), at: scanner.location)
            }
            let regex = stripSlashes(pattern)
            try checkRegex(regex)
            return .regex(regex)
        case "events": return .events
        case "chunks": return .chunks
        case "event":
            guard let index = try scanner.word() else {
                throw ParseError(.missingArgument(command: command, expected: "an event index after 'event' (e.g. event 0 data, event -1 json $.done)"),
                                 at: scanner.location)
            }
            if !index.text.contains("{{"), Int(index.text) == nil {
                throw ParseError(.missingArgument(command: command, expected: "an event index such as 0 or -1 (the last), not '\(index.text)'"),
                                 at: index.location)
            }
            guard let field = try scanner.word() else {
                throw ParseError(.missingArgument(command: command, expected: "what to look at in the event: \(ResponseQuery.EventField.keywords.joined(separator: ", "))"),
                                 at: scanner.location)
            }
            switch field.text.lowercased() {
            case "event": return .event(index, .event)
            case "data": return .event(index, .data)
            case "id": return .event(index, .id)
            case "retry": return .event(index, .retry)
            case "json":
                return .event(index, .json(try jsonPath(&scanner, command: command, example: "$.choices[0].delta")))
            default:
                throw ParseError.unknown(field.text, kind: "event field", valid: ResponseQuery.EventField.keywords, at: field.location)
            }
        default:
            throw ParseError.unknown(word.text, kind: "query", valid: ResponseQuery.keywords, at: word.location)
        }
    }

    /// The JSONPath after `json`, checked unless it holds a template.
    private static func jsonPath(_ scanner: inout LineScanner, command: String, example: String) throws(ParseError) -> Word {
        guard let path = try scanner.jsonPath() else {
            throw ParseError(.missingArgument(command: command, expected: "a JSONPath after 'json' (e.g. \(example))"), at: scanner.location)
        }
        if !path.text.contains("{{") {
            do {
                _ = try JSONPath(path.text)
            } catch {
                throw ParseError(.invalidJSONPath(path.text, reason: error.reason), at: path.location.advanced(by: error.column - 1))
            }
        }
        return path
    }

    /// The predicate `word` starts; `jsonQuery` when the query reads JSON (`json`, an event's
    /// `json`), whose bracketed value must be JSON.
    private static func predicate(_ word: Word, _ scanner: inout LineScanner, jsonQuery: Bool) throws(ParseError) -> Predicate {
        func value(_ what: String) throws(ParseError) -> Word {
            // `== [1, 2]` and `contains {"id": 7}`: a JSON array or object, spaces and all. After a
            // query of text (a body, a header), a bracketed word that is not JSON (`[INFO]`) is text.
            if what == "==" || what == "!=" || what == "contains" {
                var ahead = scanner
                if let literal = try ahead.jsonLiteral() {
                    if jsonQuery {
                        try ValueLiteral.checkJSON(literal)
                    } else {
                        guard literal.text.contains("{{") || (try? JSONParser.parse(literal.text)) != nil else { return try plainWord(what) }
                    }
                    scanner = ahead
                    return literal
                }
            }
            return try plainWord(what)
        }
        func plainWord(_ what: String) throws(ParseError) -> Word {
            guard let value = try scanner.word() else {
                throw ParseError(.missingArgument(command: "expect", expected: "a value after '\(what)'"), at: scanner.location)
            }
            return value
        }
        if !word.quoted, let op = ComparisonOperator(rawValue: word.text) {
            return .compare(op, try value(word.text))
        }
        switch word.text {
        case "contains": return .contains(try value("contains"))
        case "startsWith": return .startsWith(try value("startsWith"))
        case "endsWith": return .endsWith(try value("endsWith"))
        case "matches":
            let pattern = stripSlashes(try value("matches"))
            try checkRegex(pattern)
            return .matches(pattern)
        case "exists": return .exists
        case "count":
            guard let opWord = try scanner.word() else {
                throw ParseError(.missingArgument(command: "expect", expected: "a comparison after 'count' (e.g. count == 3)"), at: scanner.location)
            }
            guard let op = ComparisonOperator(rawValue: opWord.text) else {
                throw ParseError.unknown(opWord.text, kind: "comparison", valid: ComparisonOperator.allCases.map(\.rawValue), at: opWord.location)
            }
            let number = try value(opWord.text)
            if !number.text.contains("{{"), Int(number.text) == nil {
                throw ParseError(.invalidValue(number.text, expected: "a whole number for 'count'"), at: number.location)
            }
            return .count(op, number)
        default:
            if Predicate.typeKeywords.contains(word.text) { return .isType(word.text) }
            throw ParseError.unknown(word.text, kind: "predicate", valid: Predicate.keywords, at: word.location)
        }
    }

    /// `/re/` written unquoted becomes `re`.
    private static func stripSlashes(_ word: Word) -> Word {
        guard !word.quoted, word.text.count >= 2, word.text.hasPrefix("/"), word.text.hasSuffix("/") else { return word }
        return Word(String(word.text.dropFirst().dropLast()), quoted: true, location: word.location.advanced(by: 1))
    }

    private static func checkRegex(_ pattern: Word) throws(ParseError) {
        guard !pattern.text.contains("{{") else { return }
        do {
            _ = try RegexCache.compile(pattern.text, at: pattern.location)
        } catch {
            if case .parse(let parseError) = error { throw parseError }
        }
    }
}
