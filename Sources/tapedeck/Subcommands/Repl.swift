#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckShell

extension TapedeckCommand {
    /// `tapedeck repl [BASE_URL]`: the interactive prompt (also `tapedeck` with no arguments).
    struct Repl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "repl",
            abstract: "Opens the interactive prompt.",
            discussion: """
                Type 'help' at the prompt for the commands. History is kept in
                $XDG_STATE_HOME/tapedeck/history (or ~/.local/state/tapedeck/history).
                Tab completes commands, headers, {{variables}}, files after @ and <, and paths.
                Ctrl-C cancels the line or the request in flight; Ctrl-D exits.
                With stdin not a terminal, commands are read with no prompt and no colours:
                  printf 'base http://localhost:8080\\nget /get\\n' | tapedeck
                """
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

        func validate() throws {
            if replay != nil, record != nil { throw ValidationError("use either --replay or --record, not both") }
            if mode != nil, record == nil { throw ValidationError("--mode needs --record CASSETTE") }
            _ = try VariableOption.parse(variables)
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
            let interpreter = Interpreter(
                transport: CurlTransport(),
                output: ShellOutput { Console.write($0) },
                options: .init(environment: environment, echoResponses: true, colors: colors)
            )
            interpreter.cassettes = .sessions(environment: environment)
            interpreter.state.variables = (try? VariableOption.parse(variables)) ?? [:]
            let editor = LineEditor(historyURL: HistoryFile.url(environment: environment), interactive: interactive)
            if interactive {
                errors.line("tapedeck \(TapedeckCommand.version) · type 'help' for commands, Ctrl-D to exit")
            }
            var opening: [String] = []
            if let base { opening.append("base \(CurlQuoting.word(base))") }
            if let replay { opening.append("replay \(CurlQuoting.word(replay))") }
            if let record { opening.append("record \(CurlQuoting.word(record))" + (mode.map { " --mode \($0)" } ?? "")) }
            for line in opening {
                do {
                    try await interpreter.run(source: line, file: "<command line>")
                } catch {
                    errors.line(error.localizedDescription)
                    return error.category == .parse ? 1 : 3
                }
            }
            return await ReplSession(interpreter: interpreter, editor: editor, errors: errors).run()
        }
    }
}

/// `--var name=value` options.
enum VariableOption {
    static func parse(_ options: [String]) throws -> [String: String] {
        var variables: [String: String] = [:]
        for option in options {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
                throw ValidationError("--var '\(option)' is not name=value; write --var token=abc")
            }
            variables[String(option[..<equals])] = String(option[option.index(after: equals)...])
        }
        return variables
    }
}

/// Quotes a command-line value as one word of the command language.
enum CurlQuoting {
    static func word(_ text: String) -> String {
        text.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" || $0 == "#" })
            ? "'" + text.replacingOccurrences(of: "'", with: "") + "'" : text
    }
}
