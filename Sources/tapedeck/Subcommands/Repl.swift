#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling
import TapedeckCurl
import TapedeckShell

extension TapedeckCommand {
    /// `tapedeck repl [BASE_URL]`: the interactive prompt (also `tapedeck` with no arguments).
    struct Repl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repl",
            abstract: "Opens the interactive prompt.",
            discussion: HelpText.prose("""
                Type 'help' at the prompt for the commands. History is kept in
                $XDG_STATE_HOME/tapedeck/history (or ~/.local/state/tapedeck/history).
                Tab completes commands, headers, {{variables}}, files after @ and <, and paths;
                with --openapi (or 'openapi FILE' at the prompt) also the document's paths,
                parameters and body members.
                Ctrl-C cancels the line or the request in flight; Ctrl-D exits.
                With stdin not a terminal, commands are read with no prompt and no colours:
                  printf 'base http://localhost:8080\\nget /get\\n' | tapedeck
                """)
        )

        @Argument(help: "The base URL to start with (e.g. http://localhost:8080/api).")
        var base: String?

        @Option(name: .long, help: ArgumentHelp("Answer requests from this cassette.", valueName: "cassette"))
        var replay: String?

        @Option(name: .long, help: ArgumentHelp("Record requests into this cassette.", valueName: "cassette"))
        var record: String?

        @Option(name: .long, help: ArgumentHelp("Record mode with --record: once, new, all, none.", valueName: "mode"))
        var mode: String?

        @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable (repeatable).", valueName: "name=value"))
        var variables: [String] = []

        @Option(name: .long, help: ArgumentHelp(
            "Load an OpenAPI 3.0/3.1 document: ls and cd move over its paths, Tab completes them, responses that break it get a warning.",
            valueName: "spec"))
        var openapi: String?

        @Option(name: .customLong("env-file"), help: ArgumentHelp("Read KEY=value variables from a file (repeatable; --var wins).", valueName: "file"))
        var envFiles: [String] = []

        @OptionGroup var transportOptions: SessionTransportOptions

        @OptionGroup var cassetteOptions: CassetteMatchOptions

        func validate() throws {
            if replay != nil, record != nil { throw ValidationError("use either --replay or --record, not both") }
            if mode != nil, record == nil { throw ValidationError("--mode needs --record CASSETTE") }
            _ = try VariableOption.parse(variables)
            try ReplayOption.check(replay)
            try OutputOption.check(record, option: "--record")
        }

        func run() async throws {
            let code = await start()
            if code != 0 { throw ExitCode(code) }
        }

        @MainActor
        private func start() async -> Int32 {
            let environment = ProcessInfo.processInfo.environment
            let interactive = isatty(STDIN_FILENO) == 1
            let colors = interactive && isatty(STDOUT_FILENO) == 1 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
            let errors = ShellOutput(handle: .standardError)
            var options = Interpreter.Options(environment: environment, echoResponses: true, colors: colors)
            options.isTerminal = interactive && isatty(STDOUT_FILENO) == 1
            transportOptions.apply(to: &options)
            let interpreter = Interpreter(
                transport: transportOptions.makeTransport(),
                output: ShellOutput { Console.write($0) },
                options: options
            )
            do {
                interpreter.cassettes = try cassetteOptions.sessions(environment: environment)
                interpreter.state.variables = try VariableOption.load(envFiles: envFiles, variables: variables)
            } catch {
                errors.line(error.localizedDescription)
                return 1
            }
            interpreter.fixedVariables = Set(interpreter.state.variables.keys)
            let editor = LineEditor(historyURL: HistoryFile.url(environment: environment), interactive: interactive)
            if interactive {
                errors.line("tapedeck \(TapedeckCommand.version) · type 'help' for commands, Ctrl-D to exit")
            }
            var opening: [String] = []
            if let base { opening.append("base \(ShellWord.quote(base))") }
            if let replay { opening.append("replay \(ShellWord.quote(replay))") }
            if let record { opening.append("record \(ShellWord.quote(record))" + (mode.map { " --mode \($0)" } ?? "")) }
            // After the cassette, so a cassette's recorded base wins over the document's server.
            if let openapi { opening.append("openapi \(ShellWord.quote(openapi))") }
            for line in opening {
                do {
                    try await interpreter.run(source: line, file: "<command line>")
                } catch {
                    errors.line(error.localizedDescription)
                    // A base URL that cannot be used is a bad argument, like a bad option.
                    return error.category == .parse || line.hasPrefix("base ") || line.hasPrefix("openapi ") ? 1 : 3
                }
            }
            return await ReplSession(interpreter: interpreter, editor: editor, errors: errors).run()
        }
    }
}
