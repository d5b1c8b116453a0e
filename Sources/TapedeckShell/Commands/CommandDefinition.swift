import Tapedeck

/// Everything about one command of the language, in one place: the word that starts it, how
/// its line parses into a ``Command``, its help, what `save` and Tab do with it, and how the
/// interpreter runs it. ``CommandRegistry/all`` lists every definition; the parser, `help`, Tab
/// completion, `save`, the history file's redaction and the interpreter read them from there.
///
/// A new command is a new definition (a file in `Commands/` extending this type with a
/// `static let`), its line in ``CommandRegistry/all``, its case of ``Command`` when it parses
/// into a new shape, and its test. The closures spell out their error type (`throws(ParseError)`,
/// `throws(ShellError)`): Swift does not infer a closure's typed throws from its context.
///
/// ```swift
/// extension CommandDefinition {
///     static let clear = CommandDefinition(
///         name: "clear", group: .prompt, place: 2,
///         usage: "clear", summary: "clear the terminal screen (…)", example: "clear",
///         save: .skipped,
///         grammar: { _ throws(ParseError) in .clear },
///         action: { command in
///             guard case .clear = command else { return nil }
///             return { shell, _ throws(ShellError) in
///                 if shell.options.colors { shell.output.control("\u{1B}[H\u{1B}[2J\u{1B}[3J") }
///                 return true
///             }
///         })
/// }
/// ```
struct CommandDefinition: Sendable {
    /// How a command runs, once its definition took it: false stops the script or the REPL (`exit`).
    typealias Action = @MainActor (_ shell: Interpreter, _ location: SourceLocation) async throws(ShellError) -> Bool

    /// What `save` does with a command that succeeded at the top level.
    enum SaveRule: Sendable {
        /// Left out: it only looks (`vars`, `show`) or acts on the prompt (`clear`, `exit`).
        case skipped
        /// Kept: it changes the session or sends a request, so the saved script needs it.
        case kept
        /// Kept in a `.tape` script, left out of a `save --swift` test, which replays its own
        /// cassette (`record`, `replay`, `live`, `tape`).
        case keptExceptInSwift
    }

    /// What Tab offers after the command's name (``Completer`` works out the candidates).
    enum Completion: Sendable {
        /// Nothing.
        case nothing
        /// The command words (`help`).
        case commandNames
        /// These keywords (`show request`).
        case keywords([String])
        /// URL paths seen this session and in the loaded OpenAPI document (`cd`, `ls`).
        case urlPaths
        /// File paths (`include`, `save`, `record`, `replay`).
        case files
        /// A header name with its colon, or `unset`, as the first argument (`header`).
        case headerOrUnset
        /// Response queries, then predicates (`expect`, `capture`).
        case responseQuery
        /// A request line's path, flags, items and the document's parameters (`get`, `post`, …).
        case request
    }

    /// A credential a command's line holds after a name, such as `header Authorization: …`
    /// or `set token = …`: ``CommandRedaction`` replaces the rest of such a line before it
    /// reaches disk when ``isSecret`` says the name is a credential's.
    struct LineSecret: Sendable {
        /// A regular expression matching the name (`[A-Za-z0-9_.-]+`).
        var name: String
        /// A regular expression matching what separates the name from the value (`\s*=\s*`).
        var separator: String
        /// Whether the value after `name` is a credential, by the redactor's rules.
        var isSecret: @Sendable (_ name: String, _ redactor: Redactor) -> Bool
    }

    /// The word that starts the command, lower-case, as `help` and Tab show it.
    let name: String
    /// Other words that start it, accepted but never listed or completed (`quit`).
    let aliases: [String]
    /// Its help: syntax, meaning, example, and where `help` lists it.
    let helpEntry: CommandHelp.Entry
    /// What `save` does with it.
    let saveRule: SaveRule
    /// What Tab offers after its name.
    let completion: Completion
    /// The argument that names a file, which `save` rewrites relative to the saved script's
    /// folder (``SavedPaths``); nil for a command without one.
    let filePath: @Sendable (Command) -> Word?
    /// The credential its line can hold, if any.
    let secret: LineSecret?
    /// Parses the words after the name into a command; the line parser reports any word the
    /// grammar leaves unread.
    let grammar: @Sendable (inout LineParser) throws(ParseError) -> Command
    /// How the interpreter runs a command this definition parsed; nil for any other command.
    let action: @Sendable (Command) -> Action?

    /// Creates a definition; `group` and `place` say where `help` lists it (`place` counts
    /// from 1 within the group).
    init(name: String, aliases: [String] = [], group: CommandHelp.Group, place: Int,
         usage: String, summary: String, example: String,
         save: SaveRule, completion: Completion = .nothing,
         filePath: @escaping @Sendable (Command) -> Word? = { _ in nil }, secret: LineSecret? = nil,
         grammar: @escaping @Sendable (inout LineParser) throws(ParseError) -> Command,
         action: @escaping @Sendable (Command) -> Action?) {
        self.name = name
        self.aliases = aliases
        self.helpEntry = CommandHelp.Entry(name: name, usage: usage, summary: summary, example: example, group: group, place: place)
        self.saveRule = save
        self.completion = completion
        self.filePath = filePath
        self.secret = secret
        self.grammar = grammar
        self.action = action
    }

    /// Every word that starts the command: its name, then its aliases.
    var words: [String] { [name] + aliases }
}
