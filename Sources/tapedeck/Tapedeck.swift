#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckShell

/// `tapedeck`: one-shot HTTPie-style requests, the REPL, scripts and cassettes.
@main
struct TapedeckCommand: AsyncParsableCommand {
    static let version = HTTPRequest.tapedeckVersion

    static let configuration = CommandConfiguration(
        commandName: "tapedeck",
        abstract: "Send HTTP requests, explore APIs, run .tape scripts, record and replay cassettes.",
        usage: """
            tapedeck [METHOD] URL [ITEM...] [--form|--multipart|--raw TEXT] [--print HhBb] [-v]
              tapedeck repl | run FILE... | convert IN OUT | cassette ...
            """,
        discussion: HelpText.prose("""
            ITEMS (HTTPie syntax; escape a separator in a name with a backslash: a\\=b=c)
              Name:value        header (Name: or Name; sends it empty)
              name==value       query item
              name=value        JSON string field (form field with --form)
              name:=json        raw JSON field: n:=1  ok:=true  tags:='["a","b"]'
              name@path         file upload (multipart); name@img.bin;type=image/png
              name=@file        string field read from a file
              name:=@file       JSON field read from a file
              a[b][]=c          nested JSON: {"a":{"b":["c"]}}

            URLS  :8080/get is http://localhost:8080/get; example.org/x gets http://.
            METHOD defaults to GET, or POST when body items are present.
            BODY  --raw TEXT, or standard input: tapedeck POST :8080/post < body.json
                  (a redirected file or a pipe is read; --ignore-stdin skips it).
            Redirects are not followed unless --follow is given (as in HTTPie).
            On a terminal the response headers and a coloured body are printed; when stdout
            is piped only the raw body is (use --print hb for both). NO_COLOR turns colours off.

            EXIT CODES
              0  a response was received (any status, unless --check-status)
              1  usage error: bad URL, method, item, file or conflicting flags
              2  script parse error (tapedeck run)
              3  transport failure: connection refused, DNS, timeout, TLS
              4  with --check-status: the response status was 4xx or 5xx
                 (tapedeck run: an assertion failed)
            """),
        version: TapedeckCommand.version,
        subcommands: [Repl.self, Run.self, Convert.self, CassetteCommand.self, Import.self, Generate.self, Serve.self, Proxy.self, CA.self]
    )

    @OptionGroup var request: OneShotOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("[METHOD] URL [ITEM...]", valueName: "request"))
    var words: [String] = []

    func run() async throws {
        guard !words.isEmpty else {
            let repl = try Repl.parse([])
            try await repl.run()
            return
        }
        let code = try await OneShot(options: request, words: words).run()
        if code != 0 { throw ExitCode(code) }
    }

    /// Parses, runs, and maps every failure to a one-line `tapedeck: error:` and an exit code;
    /// never a backtrace.
    static func main() async {
        setvbuf(stdout, nil, _IOLBF, 0)
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["help"] { arguments = ["--help"] }  // the full help, items and exit codes included
        // The one-shot request words are parsed with `.allUnrecognized`, which would swallow
        // subcommand names; a root without them parses `tapedeck run …` and friends.
        let root: any ParsableCommand.Type = arguments.first.map(SubcommandRoot.handles) == true
            ? SubcommandRoot.self : TapedeckCommand.self
        do {
            var command = try root.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Console.flush()
            Glibc.exit(0)
        } catch {
            Console.flush()
            Glibc.exit(Console.report(error, root: root))
        }
    }
}

/// `tapedeck SUBCOMMAND …`: the same subcommands as ``TapedeckCommand`` without the one-shot
/// request arguments, so that subcommand names and their `--help` parse as such.
struct SubcommandRoot: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapedeck",
        version: TapedeckCommand.version,
        subcommands: TapedeckCommand.configuration.subcommands
    )

    /// Whether `word` names a subcommand (or `help`).
    static func handles(_ word: String) -> Bool {
        word == "help" || configuration.subcommands.contains { $0._commandName == word }
    }
}
