import Testing
@testable import TapedeckShell

@Suite("Parser")
struct ParserTests {
    private func parse(_ line: String) throws -> Command? {
        try Parser.parseLine(line, file: "t.tape")
    }

    private func argument(_ command: Command?) -> String? {
        switch command {
        case .cd(let word)?: word?.text
        case .queryUnset(let word)?, .headerUnset(let word)?: word.text
        default: nil
        }
    }

    private func error(_ source: String) -> ParseError? {
        do {
            _ = try Parser.parseScript(source, file: "t.tape")
            return nil
        } catch {
            return error
        }
    }

    @Test("state commands parse into their cases")
    func stateCommands() throws {
        #expect(try parse("base http://localhost:8080") == .base(Word("http://localhost:8080", location: .init(file: "t.tape", line: 1, column: 6))))
        #expect(argument(try parse("cd ..")) == "..")
        guard case .header(let name, let value)? = try parse("header Authorization: Bearer {{token}}") else {
            Issue.record("not a header")
            return
        }
        #expect(name.text == "Authorization" && value.text == "Bearer {{token}}")
        guard case .set(let variable, let setValue)? = try parse("set user = Ada Lovelace") else {
            Issue.record("not a set")
            return
        }
        #expect(variable == "user" && setValue.text == "Ada Lovelace")
        guard case .set(_, let inline)? = try parse("set n=1") else { Issue.record("not a set"); return }
        #expect(inline.text == "1")
        guard case .query(let queryName, let queryValue)? = try parse("query page=2") else { Issue.record("not a query"); return }
        #expect(queryName.text == "page" && queryValue.text == "2")
        guard case .query(_, let itemValue)? = try parse("query v==1") else { Issue.record("not a query"); return }
        #expect(itemValue.text == "1", "a request item's == reads as =")
        #expect(throws: ParseError.self, "cd takes a path; a whole URL is the base's") { try parse("cd http://127.0.0.1:8080/o") }
        #expect(argument(try parse("query unset page")) == "page")
        #expect(argument(try parse("header unset Accept")) == "Accept")
        #expect(try parse("show curl") == .show(.curl))
        #expect(try parse("help expect") == .help("expect"))
        #expect(try parse("exit") == .exit)
        #expect(try parse("# comment") == nil)
        #expect(try parse("   ") == nil)
    }

    @Test("a request line separates target, items, flags and body")
    func requestLine() throws {
        guard case .request(let request)? = try parse(#"post /users name=Ada age:=36 X-Id:7 q==1 --form"#) else {
            Issue.record("not a request")
            return
        }
        #expect(request.method == "POST")
        #expect(request.target?.text == "/users")
        #expect(request.items.map(\.text) == ["name=Ada", "age:=36", "X-Id:7", "q==1"])
        #expect(request.form)
        guard case .request(let noTarget)? = try parse("get Accept:json") else { Issue.record("not a request"); return }
        #expect(noTarget.target == nil && noTarget.items.map(\.text) == ["Accept:json"])
        guard case .request(let query)? = try parse("get ?page=3 Accept:json") else { Issue.record("not a request"); return }
        #expect(query.target?.text == "?page=3", "a word starting with ? is a query on the base URL")
        guard case .request(let local)? = try parse("get :8000/get q==1") else { Issue.record("not a request"); return }
        #expect(local.target?.text == ":8000/get" && local.items.map(\.text) == ["q==1"], "HTTPie's localhost shorthand is a target")
        guard case .request(let file)? = try parse("put /x < body.json") else { Issue.record("not a request"); return }
        #expect(file.body == .file(Word("body.json", location: .init(file: "t.tape", line: 1, column: 10))))
        guard case .request(let raw)? = try parse("patch /x --raw 'a b'") else { Issue.record("not a request"); return }
        #expect(raw.body == .raw(Word("a b", quoted: true, location: .init(file: "t.tape", line: 1, column: 16))))
        guard case .request(let custom)? = try parse("PURGE /cache") else { Issue.record("not a request"); return }
        #expect(custom.method == "PURGE")
    }

    @Test("a heredoc body runs to its delimiter line and is kept in the source")
    func heredoc() throws {
        let statements = try Parser.parseScript("post /p <<EOF\n{\"a\": 1}\n  line 2\nEOF\nexpect 200\n", file: "t.tape")
        #expect(statements.count == 2)
        guard case .request(let request) = statements[0].command, case .heredoc(let body)? = request.body else {
            Issue.record("no heredoc")
            return
        }
        #expect(body.text == "{\"a\": 1}\n  line 2")
        #expect(statements[0].source == "post /p <<EOF\n{\"a\": 1}\n  line 2\nEOF")
        #expect(statements[1].location.line == 5)
    }

    @Test("expect parses the status shorthand, queries, not, and every predicate")
    func expectations() throws {
        #expect(try parse("expect 201") == .expect(Assertion(query: .status, predicate: .compare(.equal, Word("201", location: .init(file: "t.tape", line: 1, column: 8))))))
        let lines = [
            "expect status < 300", "expect header Content-Type contains json", "expect json $.a[0] == \"x\"",
            "expect body startsWith ok", "expect duration <= 100", "expect url endsWith /get",
            "expect regex \"id=(\\d+)\" == 7", "expect json $.a exists", "expect json $.a not exists",
            "expect json $.a isString", "expect json $.a count >= 2", "expect json $.a matches /^[a-z]+$/",
            "expect json $.a != null", "expect json $.a > 1.5", "expect json $.a isNull",
        ]
        for line in lines {
            guard case .expect = try parse(line) else {
                Issue.record("\(line) did not parse as expect")
                continue
            }
        }
        guard case .expect(let negated)? = try parse("expect json $.a not exists") else { return }
        #expect(negated.negated && negated.predicate == .exists)
        guard case .capture(let name, let query)? = try parse("capture id = json $.id") else { Issue.record("no capture"); return }
        #expect(name == "id" && query == .json(Word("$.id", location: .init(file: "t.tape", line: 1, column: 19))))
    }

    @Test("an unknown command names the closest command")
    func unknownCommand() {
        let found = error("base http://x\ngte /get\n")
        #expect(found?.kind == .unknownCommand("gte", suggestion: "get"))
        #expect(found?.location == SourceLocation(file: "t.tape", line: 2, column: 1))
        #expect(found?.errorDescription == "t.tape:2:1: unknown command 'gte'; did you mean 'get'? (type 'help' for the list)")
        #expect(error("frobnicate\n")?.kind == .unknownCommand("frobnicate", suggestion: nil))
    }

    @Test("every other error kind carries its location")
    func errorKinds() {
        #expect(error("post /x <<EOF\n{}\n")?.kind == .unclosedHeredoc(delimiter: "EOF"))
        #expect(error("post /x <<EOF\n{}\n")?.location == SourceLocation(file: "t.tape", line: 1, column: 11))
        #expect(error("print 'oops")?.kind == .unclosedQuote("'"))
        #expect(error("get /users/{{id")?.kind == .unclosedInterpolation)
        #expect(error("get /users/{{id")?.location.column == 12)
        #expect(error("print {{a b}}")?.kind == .invalidVariableName("a b"))
        #expect(error("base")?.kind == .missingArgument(command: "base", expected: "a URL"))
        #expect(error("vars extra")?.kind == .unexpectedArgument("extra", command: "vars"))
        #expect(error("show respnse")?.kind == .unknownKeyword("respnse", kind: "show target", valid: ["request", "response", "headers", "curl", "state"], suggestion: "response"))
        if case .unknownKeyword(_, let kind, _, let suggestion)? = error("expect json $.a equals 1")?.kind {
            #expect(kind == "predicate" && suggestion == nil)
        } else {
            Issue.record("no predicate error")
        }
        if case .unknownKeyword(_, "query", _, "status")? = error("expect stauts == 200")?.kind {} else {
            Issue.record("no query suggestion")
        }
        if case .unknownKeyword(_, "request option", _, "--form")? = error("post /x --from")?.kind {} else {
            Issue.record("no option suggestion")
        }
        if case .unknownKeyword(_, "record mode", _, _)? = error("record a.json --mode sometimes")?.kind {} else {
            Issue.record("no mode error")
        }
        let path = error("expect json $.a[?(@.b = 1)] exists")
        if case .invalidJSONPath? = path?.kind {} else { Issue.record("no JSONPath error") }
        #expect(path?.location.column == 23)
        if case .invalidRegex? = error("expect body matches /([a-z/")?.kind {} else { Issue.record("no regex error") }
        #expect(error("expect json $.a count == many")?.kind == .invalidValue("many", expected: "a whole number for 'count'"))
        if case .invalidValue? = error("set 9lives = 1")?.kind {} else { Issue.record("no variable-name error") }
        if case .invalidValue? = error("header NoColon")?.kind {} else { Issue.record("no header error") }
    }

    @Test("help has syntax and an example for every command")
    func helpCoversEveryCommand() {
        for name in Parser.commandNames {
            let detail = CommandHelp.detail(name)
            #expect(detail?.contains("usage:") == true, "help \(name)")
            #expect(detail?.contains("example:") == true, "help \(name)")
        }
    }
}
