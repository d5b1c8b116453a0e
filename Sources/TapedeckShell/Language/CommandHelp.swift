/// Syntax, one-line meaning and an example for every command: `help` and `help CMD`.
public enum CommandHelp {
    /// One command's help.
    public struct Entry: Sendable {
        /// The command word.
        public var name: String
        /// Its syntax.
        public var usage: String
        /// What it does.
        public var summary: String
        /// A line to copy.
        public var example: String

        /// The summary's first clause, for the overview.
        public var brief: String {
            let firstLine = summary.split(separator: "\n").first.map(String.init) ?? summary
            let clause = firstLine.components(separatedBy: "; ").first ?? firstLine
            return clause.components(separatedBy: " (").first ?? clause
        }
    }

    /// Every command, in the order `help` lists them.
    public static let entries: [Entry] = [
        Entry(name: "base", usage: "base URL", summary: "set the base URL (scheme, host, optional path; as in HTTPie, :8080/api means http://localhost:8080/api and a URL without a scheme gets http://)", example: "base http://localhost:8080/api"),
        Entry(name: "cd", usage: "cd PATH | cd .. | cd /", summary: "move the current path relative to the base", example: "cd users/42"),
        Entry(name: "ls", usage: "ls [PATH]", summary: "list the OpenAPI document's paths under the current path (or PATH) with their methods; needs 'openapi FILE' first", example: "ls"),
        Entry(name: "openapi", usage: "openapi FILE | openapi off | openapi",
              summary: """
                load an OpenAPI 3.0/3.1 document (YAML or JSON): 'ls' and 'cd' move over its paths, Tab completes
                its paths, parameters (name==, Name:) and body members (name=, name:=), and each response that
                breaks the document gets a warning; 'openapi off' drops it, 'openapi' alone names it
                """,
              example: "openapi api.yaml"),
        Entry(name: "header", usage: "header Name: value | header unset Name", summary: "add or remove a header sent with every request", example: "header Authorization: Bearer {{token}}"),
        Entry(name: "headers", usage: "headers", summary: "list the persistent headers", example: "headers"),
        Entry(name: "query", usage: "query name=value | query unset name", summary: "add or remove a query item sent with every request", example: "query page=2"),
        Entry(name: "set", usage: "set name = value", summary: "set a variable, used as {{name}}", example: "set user = ada"),
        Entry(name: "unset", usage: "unset name", summary: "remove a variable", example: "unset user"),
        Entry(name: "vars", usage: "vars", summary: "list the variables", example: "vars"),
        Entry(name: "get", usage: "get [PATH|URL] [ITEM...] [--form|--multipart] [--timeout S] [--follow] [-v|-b|--print HBhb] [--raw TEXT | < FILE | <<EOF]",
              summary: """
                send a request (PATH is relative to the current path, /PATH to the base, or a full URL)
                items (as in HTTPie; they apply to this request only):
                  Name:value   header              name==value  query item
                  name=value   JSON string field   name:=json   raw JSON field (n:=1, tags:='["a"]')
                  name@file    multipart file      name=@file   field read from a file
                flags:
                  --form, -f         fields urlencoded      --multipart    fields and files as parts
                  --timeout SECONDS  deadline for this one  --follow, -F   follow redirects
                  -v, --verbose      show the request too   -b, --body     the response body only
                  --headers          response headers only  --print HBhb   choose, as in HTTPie
                  --raw TEXT, < FILE, <<EOF … EOF   the body as given; without a Content-Type it is sent
                                     as application/json when it parses as JSON, else text/plain
                """,
              example: "get /get search==tapedeck Accept:application/json"),
        Entry(name: "post", usage: "post [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]", summary: "send a POST (see 'help get' for items and flags); a heredoc body ends with its delimiter line", example: "post /post name=Ada age:=36"),
        Entry(name: "put", usage: "put [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]", summary: "send a PUT (see 'help get')", example: "put /put < body.json"),
        Entry(name: "patch", usage: "patch [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]", summary: "send a PATCH (see 'help get')", example: "patch /patch done:=true"),
        Entry(name: "delete", usage: "delete [PATH|URL] [ITEM...]", summary: "send a DELETE (see 'help get')", example: "delete /delete id==7"),
        Entry(name: "head", usage: "head [PATH|URL] [ITEM...]", summary: "send a HEAD (see 'help get')", example: "head /get"),
        Entry(name: "options", usage: "options [PATH|URL] [ITEM...]", summary: "send an OPTIONS (see 'help get')", example: "options /get"),
        Entry(name: "expect", usage: "expect STATUS | expect QUERY [not] [PREDICATE [VALUE]]",
              summary: """
                assert on the last response (a script stops at the first failure)
                queries:    status · header NAME · json $.path · body · duration (ms) · url · regex "RE"
                predicates: == != < <= > >= VALUE · contains · startsWith · endsWith · matches /re/
                            exists · isString isNumber isBool isArray isObject isNull · count OP N
                values are typed: 36 and true are JSON, "36" is a string; 'expect 200' means status == 200
                JSONPath: $.a.b · [0] · [-1] · [*] · ..name · [?(@.k == "v")]
                """,
              example: "expect json $.slideshow.slides count == 2"),
        Entry(name: "capture", usage: "capture NAME = QUERY", summary: "store part of the last response in a variable", example: "capture origin = json $.origin"),
        Entry(name: "show", usage: "show request|response|headers|curl|state", summary: "inspect the last exchange or the session; 'show curl' prints an equivalent curl command", example: "show curl"),
        Entry(name: "history", usage: "history", summary: "list the commands 'save' would write", example: "history"),
        Entry(name: "save", usage: "save PATH · save --swift FILE.swift", summary: "write this session's successful commands as a runnable .tape script, or (--swift) as a Swift Testing file replaying its cassette", example: "save Sessions/explore.tape"),
        Entry(name: "include", usage: "include PATH", summary: "run another script here (relative to this script's folder)", example: "include login.tape"),
        Entry(name: "print", usage: "print TEXT", summary: "print text, with {{variables}} expanded", example: "print token is {{token}}"),
        Entry(name: "clear", usage: "clear", summary: "clear the terminal screen (Ctrl-L works too); does nothing when output is not a terminal", example: "clear"),
        Entry(name: "help", usage: "help [COMMAND]", summary: "list the commands, or show one command's syntax and an example", example: "help expect"),
        Entry(name: "exit", usage: "exit", summary: "leave the REPL or stop the script (Ctrl-D also exits)", example: "exit"),
        Entry(name: "record", usage: "record PATH [--mode once|new|all|none]", summary: "send requests live and record them into a cassette", example: "record Sessions/tour.cassette.json --mode all"),
        Entry(name: "replay", usage: "replay PATH [--repeat]", summary: "answer requests from a cassette instead of the network (--repeat serves the last match again once all were played)", example: "replay Sessions/tour.cassette.json --repeat"),
        Entry(name: "live", usage: "live", summary: "send requests to the network again (saves a cassette being recorded)", example: "live"),
        Entry(name: "tape", usage: "tape", summary: "show where requests go (live, recording or replaying) and the cassette's state", example: "tape"),
    ]

    /// The syntax of `command`, or the command itself when unknown.
    public static func usage(of command: String) -> String {
        entries.first { $0.name == command }?.usage ?? command
    }

    /// `help` output: every command with what it does, in groups.
    public static func overview() -> String {
        let width = entries.map(\.name.count).max() ?? 8
        var lines = ["Commands (help COMMAND for its syntax and an example):"]
        for (title, names) in groups {
            lines.append(title)
            for name in names {
                guard let entry = entries.first(where: { $0.name == name }) else { continue }
                lines.append("  " + entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.brief)
            }
        }
        lines.append("Variables: {{name}} anywhere; {{env.NAME}} reads the environment. '#' starts a comment.")
        return lines.joined(separator: "\n")
    }

    /// The overview's groups, in order.
    static let groups: [(String, [String])] = [
        ("Where requests go:", ["base", "cd", "ls", "header", "headers", "query"]),
        ("Requests:", ["get", "post", "put", "patch", "delete", "head", "options"]),
        ("Checks and variables:", ["expect", "capture", "openapi", "set", "unset", "vars", "print"]),
        ("Inspect and save:", ["show", "history", "save", "include"]),
        ("Cassettes:", ["record", "replay", "live", "tape"]),
        ("The prompt:", ["help", "clear", "exit"]),
    ]

    /// `help CMD` output, or nil when `command` is not a command.
    public static func detail(_ command: String) -> String? {
        let name = command == "quit" ? "exit" : command
        guard let entry = entries.first(where: { $0.name == name }) else { return nil }
        return "usage:   \(entry.usage)\n\(entry.summary)\nexample: \(entry.example)"
    }
}
