extension CommandDefinition {
    /// `expect STATUS | expect QUERY [not] [PREDICATE [VALUE]]`: an assertion on the last response.
    static let expect = CommandDefinition(
        name: "expect", group: .checks, place: 1,
        usage: "expect STATUS | expect QUERY [not] [PREDICATE [VALUE]]",
        summary: """
            assert on the last response (a script stops at the first failure)
            queries:    status · header NAME · json $.path · body · duration (ms) · url · regex "RE"
            streams:    events (server-sent events) · event N event|data|id · event N json $.path
                        (N from 0, -1 the last) · chunks (the pieces a stream arrived in)
            predicates: == != < <= > >= VALUE · contains · startsWith · endsWith · matches /re/
                        exists · isString isNumber isBool isArray isObject isNull · count OP N
            values are typed: 36 and true are JSON, "36" is a string; 'expect 200' means status == 200
            JSONPath: $.a.b · [0] · [-1] · [*] · ..name · [?(@.k == "v")]
            """,
        example: "expect json $.slideshow.slides count == 2",
        save: .kept, completion: .responseQuery,
        grammar: { line throws(ParseError) in
            let start = line.start
            return .expect(try AssertionParser.assertion(&line.scanner, start: start))
        },
        action: { command in
            guard case .expect(let assertion) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.check(assertion, at: location)
                return true
            }
        })
}
