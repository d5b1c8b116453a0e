extension CommandDefinition {
    /// `get [PATH|URL] [ITEM…] [FLAGS] [< FILE | <<EOF]`; it also parses and runs a custom
    /// method with no command word of its own (`PURGE /cache`).
    static let get = method(
        "get", place: 1,
        usage: "get [PATH|URL] [ITEM...] [--form|--multipart] [--timeout S] [--follow] [-v|-b|--print HBhb] [--raw TEXT | < FILE | <<EOF]",
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
        example: "get /get search==tapedeck Accept:application/json")

    /// `post …`, as `get`.
    static let post = method(
        "post", place: 2, usage: "post [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]",
        summary: "send a POST (see 'help get' for items and flags); a heredoc body ends with its delimiter line",
        example: "post /post name=Ada age:=36")

    /// `put …`, as `get`.
    static let put = method(
        "put", place: 3, usage: "put [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]",
        summary: "send a PUT (see 'help get')", example: "put /put < body.json")

    /// `patch …`, as `get`.
    static let patch = method(
        "patch", place: 4, usage: "patch [PATH|URL] [ITEM...] [FLAGS] [< FILE | <<EOF]",
        summary: "send a PATCH (see 'help get')", example: "patch /patch done:=true")

    /// `delete …`, as `get`.
    static let delete = method(
        "delete", place: 5, usage: "delete [PATH|URL] [ITEM...]",
        summary: "send a DELETE (see 'help get')", example: "delete /delete id==7")

    /// `head …`, as `get`.
    static let head = method(
        "head", place: 6, usage: "head [PATH|URL] [ITEM...]",
        summary: "send a HEAD (see 'help get')", example: "head /get")

    /// `options …`, as `get`.
    static let options = method(
        "options", place: 7, usage: "options [PATH|URL] [ITEM...]",
        summary: "send an OPTIONS (see 'help get')", example: "options /get")

    /// A request command for the method `name`: the request grammar (``RequestParser``), sent
    /// with ``Interpreter/send(_:at:)``. `get` also takes the requests of methods that have
    /// no command word of their own.
    private static func method(_ name: String, place: Int, usage: String, summary: String, example: String) -> CommandDefinition {
        let takesCustomMethods = name == "get"
        return CommandDefinition(
            name: name, group: .requests, place: place, usage: usage, summary: summary, example: example,
            save: .kept, completion: .request,
            grammar: { line throws(ParseError) in
                let request = try RequestParser.parse(&line.scanner, method: line.name.uppercased())
                line.heredoc = request.heredoc
                return .request(request.command)
            },
            action: { command in
                guard case .request(let request) = command else { return nil }
                let method = request.method.lowercased()
                guard method == name || (takesCustomMethods && !Parser.methodNames.contains(method)) else { return nil }
                return { shell, location throws(ShellError) in
                    try await shell.send(request, at: location)
                    return true
                }
            })
    }
}
