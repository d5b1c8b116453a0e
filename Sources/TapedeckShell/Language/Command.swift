/// One parsed command of the language: the value a ``CommandDefinition``'s grammar makes of a
/// line and its action runs (`help` shows each command's syntax).
public enum Command: Hashable, Sendable {
    /// `base URL`
    case base(Word)
    /// `cd PATH`, `cd ..`, `cd /`; `cd` alone goes to `/`.
    case cd(Word?)
    /// `ls [PATH]`: the OpenAPI document's paths under the current path (or PATH), with their methods.
    case ls(Word?)
    /// `openapi FILE` loads an OpenAPI document, `openapi off` drops it, `openapi` alone says which is loaded.
    case openapi(Word?)
    /// `header Name: value`
    case header(name: Word, value: Word)
    /// `header unset Name`
    case headerUnset(Word)
    /// `headers`
    case headers
    /// `query name=value`
    case query(name: Word, value: Word)
    /// `query unset name`
    case queryUnset(Word)
    /// `set name = value`
    case set(name: String, value: Word)
    /// `unset name`
    case unset(String)
    /// `vars`
    case vars
    /// `get/post/… [PATH] [ITEM…] [FLAGS] [< FILE | <<EOF]`
    case request(RequestCommand)
    /// `expect QUERY [PREDICATE VALUE]`
    case expect(Assertion)
    /// `capture NAME = QUERY`
    case capture(name: String, query: ResponseQuery)
    /// `show request|response|headers|curl|state`
    case show(ShowTarget)
    /// `history`
    case history
    /// `save PATH`
    case save(Word)
    /// `save --swift PATH`: a Swift Testing file replaying this session's cassette.
    case saveSwift(Word)
    /// `include PATH`
    case include(Word)
    /// `print TEXT`
    case print(Word?)
    /// `help [COMMAND]`
    case help(String?)
    /// `exit`
    case exit
    /// `record PATH [--mode M]`
    case record(Word, mode: Word?)
    /// `replay PATH [--repeat]`: `repeats` serves the last match again once every identical one was played.
    case replay(Word, repeats: Bool)
    /// `live`
    case live
    /// `tape`
    case tape
    /// `clear`: clears the terminal (nothing when output is not a terminal)
    case clear

    /// What `show` can show.
    public enum ShowTarget: String, CaseIterable, Hashable, Sendable {
        case request, response, headers, curl, state
    }
}

/// A request command: method, optional target, HTTPie items, flags and body source.
public struct RequestCommand: Hashable, Sendable {
    /// Where the body comes from, besides items.
    public enum BodySource: Hashable, Sendable {
        /// `<<EOF … EOF`: the lines between, joined with `\n`.
        case heredoc(Word)
        /// `< FILE`
        case file(Word)
        /// `--raw TEXT`
        case raw(Word)
    }

    /// The method word as typed, upper-cased.
    public var method: String
    /// The path or URL, if given.
    public var target: Word?
    /// HTTPie request items (`Name:value`, `q==1`, `a=b`, `n:=1`, `f@file`).
    public var items: [Word]
    /// `--form` / `-f`
    public var form: Bool
    /// `--multipart`
    public var multipart: Bool
    /// A body from a heredoc, a file or `--raw`.
    public var body: BodySource?
    /// `--timeout SECONDS` for this request.
    public var timeout: Word?
    /// `--follow` / `-F`: follow redirects for this request.
    public var follow: Bool
    /// What the REPL prints of this exchange (`--print HBhb`, `-v`, `-b`, `--headers`), when
    /// not the default response headers and body.
    public var print: PrintParts?

    /// Creates a request command.
    public init(method: String, target: Word? = nil, items: [Word] = [], form: Bool = false,
                multipart: Bool = false, body: BodySource? = nil, timeout: Word? = nil, follow: Bool = false,
                print: PrintParts? = nil) {
        self.method = method
        self.target = target
        self.items = items
        self.form = form
        self.multipart = multipart
        self.body = body
        self.timeout = timeout
        self.follow = follow
        self.print = print
    }
}

/// A parsed command with where it was written and its source text (heredoc included), which
/// `save` writes back.
public struct Statement: Hashable, Sendable {
    /// The command.
    public var command: Command
    /// Where the command starts.
    public var location: SourceLocation
    /// The text it was parsed from, without a trailing newline.
    public var source: String

    /// Creates a statement.
    public init(command: Command, location: SourceLocation, source: String) {
        self.command = command
        self.location = location
        self.source = source
    }
}
