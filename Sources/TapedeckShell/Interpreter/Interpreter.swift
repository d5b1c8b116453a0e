import Foundation
@_spi(Tooling) import Tapedeck
import TapedeckOpenAPI

/// Runs commands against a session: the one engine behind the REPL, `tapedeck run` and
/// `include`.
///
/// ```swift
/// let shell = Interpreter(transport: URLSessionTransport(), output: ShellOutput { print($0, terminator: "") })
/// try await shell.run(source: "base http://localhost:8080\nget /get\nexpect 200\n", file: "smoke.tape")
/// ```
@MainActor
public final class Interpreter {
    /// How the interpreter behaves.
    public struct Options: Sendable {
        /// The environment `{{env.NAME}}` reads.
        public var environment: [String: String]
        /// Where relative paths of `save`, `include`, `< file` and `@file` start (scripts use
        /// their own folder).
        public var workingDirectory: URL
        /// Whether responses are printed after each request (the REPL) or not (scripts).
        public var echoResponses: Bool
        /// Whether output may use ANSI colours.
        public var colors: Bool
        /// Whether output goes to a terminal (`clear` clears it, colours or not: `NO_COLOR`
        /// turns colours off, not the screen).
        public var isTerminal = false
        /// Whether a failure is recorded and the script goes on.
        public var continueOnError: Bool
        /// Seconds a request may take, redirects included (`--timeout`); zero or less: no limit.
        /// A request's own `--timeout` overrides it.
        public var timeout: TimeInterval
        /// Whether 3xx responses are followed (`--follow`); a request's `--follow` turns it on
        /// for that request.
        public var followRedirects: Bool
        /// Whether TLS verification is off (`--insecure`). The caller builds the live transport
        /// accordingly; the interpreter only shows it in `show curl` (`-k`).
        public var insecure: Bool
        /// Where a line per request goes (`file:line:col  GET url → 200 OK (3 ms)`), if anywhere:
        /// `tapedeck run -v`.
        public var requestLog: ShellOutput?
        /// Where warnings go (a response that breaks the OpenAPI document, a `cd` outside it);
        /// nil: with the rest of the output. `tapedeck run` sends them to stderr.
        public var warnings: ShellOutput?

        /// Creates options; defaults suit a script run.
        public init(
            environment: [String: String] = ProcessInfo.processInfo.environment,
            workingDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            echoResponses: Bool = false, colors: Bool = false, continueOnError: Bool = false,
            timeout: TimeInterval = 30, followRedirects: Bool = false, insecure: Bool = false,
            requestLog: ShellOutput? = nil
        ) {
            self.environment = environment
            self.workingDirectory = workingDirectory
            self.echoResponses = echoResponses
            self.colors = colors
            self.continueOnError = continueOnError
            self.timeout = timeout
            self.followRedirects = followRedirects
            self.insecure = insecure
            self.requestLog = requestLog
        }
    }

    /// The session: base, path, headers, query, variables, last exchange, history.
    public var state = SessionState()
    /// Where requests go now.
    public var transport: any HTTPTransport
    /// The network transport `live` returns to.
    public var liveTransport: any HTTPTransport
    /// Where requests go, as the prompt shows it: `live`, `record NAME`, `replay NAME`.
    public var modeDescription = "live"
    /// Cassette operations, when the build has them.
    public var cassettes: CassetteController?
    /// The OpenAPI document loaded with `openapi FILE` (`--openapi`): `ls`, `cd` and Tab use its
    /// paths, and responses that break it get a warning.
    package var openAPI: OpenAPIGuide?
    /// Behaviour switches.
    public var options: Options
    /// Formats a response for the terminal (`colors` says whether ANSI is allowed).
    public var render: @Sendable (_ response: HTTPResponse, _ colors: Bool) -> String
    /// Variables given from outside (`--var`, `--env-file`): a script's or include's `set` and
    /// `unset` leave them alone, so `set base = http://localhost:8080` is a default that
    /// `--var base=…` overrides (as make's command-line variables do). A `set` typed at the
    /// prompt still changes them.
    public var fixedVariables: Set<String> = []
    /// Failures recorded while ``Options/continueOnError`` is on.
    public private(set) var failures: [ShellError] = []
    /// How many requests and assertions ran.
    public private(set) var counts = (requests: 0, assertions: 0)
    /// Every exchange sent, in order, kept when ``keepsExchanges`` is on (for reports).
    public internal(set) var exchanges: [ScriptExchange] = []
    /// Whether ``exchanges`` are kept (`tapedeck run --report-html`/`--report-json`).
    public var keepsExchanges = false
    /// Every credential the session's requests and responses carried (what ``Redactor`` would
    /// replace in a cassette), so reports written to disk can replace them wherever they appear.
    package let secrets = SecretMemory()

    let output: ShellOutput
    var includeStack: [URL] = []
    /// Why requests go to the network while a cassette records; added to connection errors.
    var recordingReason: String?

    /// Creates an interpreter sending through `transport` and writing to `output`.
    public init(transport: any HTTPTransport, output: ShellOutput, options: Options = Options()) {
        self.transport = transport
        self.liveTransport = transport
        self.output = output
        self.options = options
        self.render = { response, colors in
            ResponseRenderer(options: RenderOptions(colors: colors)).render(response)
        }
    }

    /// Parses `source` and runs it; returns false when `exit` ran.
    @discardableResult
    public func run(source: String, file: String) async throws(ShellError) -> Bool {
        let statements: [Statement]
        do {
            statements = try Parser.parseScript(source, file: file)
        } catch {
            throw .parse(error)
        }
        return try await run(statements)
    }

    /// Runs statements in order; a failure stops them unless ``Options/continueOnError``.
    @discardableResult
    public func run(_ statements: [Statement]) async throws(ShellError) -> Bool {
        for statement in statements {
            do {
                guard try await execute(statement) else { return false }
            } catch {
                guard options.continueOnError, error.category != .parse, !Task.isCancelled else { throw error }
                failures.append(error)
            }
        }
        return true
    }

    /// Runs one statement with its command's ``CommandDefinition``; returns false for `exit`.
    /// Commands `save` keeps that succeed at the top level (not inside an include) join the
    /// history it writes.
    public func execute(_ statement: Statement) async throws(ShellError) -> Bool {
        guard let resolved = CommandRegistry.resolve(statement.command) else {
            // Every grammar's commands have their definition's action (the registry's tests check it).
            throw .parse(ParseError(.unknownCommand(statement.source, suggestion: nil), at: statement.location))
        }
        let keepGoing = try await resolved.action(self, statement.location)
        if includeStack.isEmpty, resolved.definition.saveRule != .skipped { state.history.append(statement.source) }
        return keepGoing
    }

    /// The variable names, for completion and suggestions.
    public var variableNames: [String] { state.variables.keys.sorted() }

    /// Expands `{{…}}` in a word.
    func expand(_ word: Word) throws(ShellError) -> String {
        let state = self.state
        let environment = options.environment
        return try Template.expand(word.text, at: word.location, known: state.variables.keys.sorted()) {
            state.lookup($0, environment: environment)
        }
    }

    /// Where relative paths start: the including script's folder, else the working directory.
    var baseDirectory: URL {
        includeStack.last?.deletingLastPathComponent() ?? options.workingDirectory
    }

    /// `path` resolved against ``baseDirectory`` (absolute and `~` paths kept).
    func resolvePath(_ path: String) -> URL {
        let expanded = (path as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return baseDirectory.appendingPathComponent(expanded).standardizedFileURL
    }

    /// Whether `set`/`unset` of `name` is skipped because the variable came from outside; at the
    /// prompt the typed command wins and the variable is no longer fixed.
    func keepsFixed(_ name: String, at location: SourceLocation) -> Bool {
        guard fixedVariables.contains(name) else { return false }
        guard location.file != SourceLocation.prompt else {
            fixedVariables.remove(name)
            return false
        }
        options.requestLog?.line("\(location)  \(name) stays \(state.variables[name].map { "'\($0)'" } ?? "unset") (given with --var or --env-file)")
        return true
    }

    func countRequest() { counts.requests += 1 }
    func countAssertion() { counts.assertions += 1 }
}
