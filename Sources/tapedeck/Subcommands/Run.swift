#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling
import TapedeckShell
import TapedeckOpenAPI

extension TapedeckCommand {
    /// `tapedeck run FILE...|-`: runs .tape scripts as tests.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Runs .tape scripts non-interactively, as tests.",
            discussion: HelpText.prose("""
                Each file is a test; a file stops at its first failure unless --continue-on-error.
                Variables: --var k=v, --env-file .env, and {{env.NAME}} from the environment;
                --var and --env-file win over a script's 'set', so 'set' gives defaults.
                A failed expect prints file:line:column, the query, expected, actual and the
                request it looked at; -v adds a line per request.
                The run ends with 'N passed, N failed', the requests, requests per second and
                the duration (one test per file, as in Hurl). Files run side by side (--jobs,
                the number of cores unless told); each file's steps run in order and its output
                is printed whole, in the order the files were given. Recording with --jobs names
                each interaction's script, so a replay gives every script its own answers,
                in parallel or not.

                EXIT CODES
                  0  every script passed
                  1  usage error (bad option, missing script file)
                  2  a script does not parse (the message gives file:line:column)
                  3  runtime error: network, cassette, bad request, undefined variable
                  4  an expect failed
                """)
        )

        @Argument(help: ArgumentHelp("Scripts to run; - reads one from stdin.", valueName: "file"))
        var files: [String] = []

        @Flag(name: .long, help: "Go on after a failure and report every one.")
        var continueOnError = false

        @Option(name: [.short, .long], help: ArgumentHelp(
            "Scripts to run at once (default: the number of cores); each file's output is printed whole, in the order given.",
            valueName: "n"))
        var jobs: Int?

        @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable (repeatable).", valueName: "name=value"))
        var variables: [String] = []

        @Option(name: .customLong("env-file"), help: ArgumentHelp("Read KEY=value variables from a file (repeatable).", valueName: "file"))
        var envFiles: [String] = []

        @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
        var reportJUnit: String?

        @Option(name: .customLong("report-tap"), help: ArgumentHelp("Write a TAP report.", valueName: "file"))
        var reportTAP: String?

        @Option(name: .customLong("report-html"), help: ArgumentHelp(
            "Write an HTML report to this folder: an index of files, and each request with its headers, body and timing (works offline).",
            valueName: "dir"))
        var reportHTML: String?

        @Option(name: .customLong("report-json"), help: ArgumentHelp("Write the same report as JSON, for tools.", valueName: "file"))
        var reportJSON: String?

        @Option(name: .long, help: ArgumentHelp("Record requests into this cassette.", valueName: "cassette"))
        var record: String?

        @Option(name: .long, help: ArgumentHelp("Answer requests from this cassette (no network).", valueName: "cassette"))
        var replay: String?

        @Option(name: .long, help: ArgumentHelp("Record mode with --record: once, new, all, none.", valueName: "mode"))
        var mode: String?

        @Flag(name: [.short, .long], help: "Print a line per request (file:line, method, URL, status); -vv prints every response too.")
        var verbose: Int

        @Option(name: .long, help: ArgumentHelp(
            "Check every exchange against an OpenAPI 3.0/3.1 document; each one that breaks it gets a warning on stderr.",
            valueName: "spec"))
        var openapi: String?

        @OptionGroup var transportOptions: SessionTransportOptions

        @OptionGroup var cassetteOptions: CassetteMatchOptions

        @OptionGroup var expiryOptions: ExpiryOptions

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one script: tapedeck run smoke.tape (or - for stdin)") }
            if replay != nil, record != nil { throw ValidationError("use either --replay or --record, not both") }
            if let jobs, jobs < 1 { throw ValidationError("--jobs \(jobs) is not a number of scripts; give 1 or more, e.g. --jobs 4") }
            if mode != nil, record == nil { throw ValidationError("--mode needs --record CASSETTE") }
            if let mode, RecordMode(rawValue: mode) == nil {
                throw ValidationError("--mode '\(mode)' is not a record mode; use once, new, all or none")
            }
            _ = try VariableOption.parse(variables)
            for (option, path) in [("--report-junit", reportJUnit), ("--report-tap", reportTAP), ("--report-json", reportJSON), ("--record", record)] {
                try OutputOption.check(path, option: option)
            }
            try OutputFolderOption.check(reportHTML, option: "--report-html")
            try ReplayOption.check(replay)
            for file in files where file != "-" {
                if FileManager.default.directoryExists(atPath: file) {
                    throw ValidationError("'\(file)' is a directory; give the scripts in it, e.g. tapedeck run \(file)/*.tape")
                }
            }
        }

        func run() async throws {
            let code = try await start()
            if code != 0 { throw ExitCode(code) }
        }

        @MainActor
        private func start() async throws -> Int32 {
            let environment = ProcessInfo.processInfo.environment
            var options = ScriptRunner.Options()
            options.environment = environment
            options.continueOnError = continueOnError
            options.echoResponses = verbose > 1
            if verbose > 0 { options.requestLog = ShellOutput { Console.write($0) } }
            options.timeout = transportOptions.timeout
            options.followRedirects = transportOptions.follow
            options.insecure = transportOptions.insecure
            options.variables = try VariableOption.load(envFiles: envFiles, variables: variables)
            options.jobs = jobs ?? ProcessInfo.processInfo.activeProcessorCount
            options.keepsExchanges = reportHTML != nil || reportJSON != nil
            if let openapi {
                do {
                    options.openAPI = OpenAPIGuide(spec: try OpenAPISpec.load(URL(fileURLWithPath: openapi), named: openapi))
                } catch {
                    throw ValidationError("--openapi: " + error.localizedDescription)
                }
            }
            var scripts: [ScriptSource] = []
            for file in files {
                if file == "-" {
                    let data = FileHandle.standardInput.readDataToEndOfFile()
                    scripts.append(ScriptSource(name: "<stdin>", text: String(decoding: data, as: UTF8.self)))
                } else {
                    do { scripts.append(try ScriptSource.file(file)) } catch {
                        throw ValidationError("cannot read script '\(file)': no such file or not UTF-8 text")
                    }
                }
            }
            var transport: any HTTPTransport = transportOptions.makeTransport()
            var session: CassetteSession?
            var modeDescription = "live"
            let matcher = try cassetteOptions.matcher(), origin = try cassetteOptions.originURL()
            let context = FixContext.run(scripts: files)
            if let path = replay ?? record {
                var configuration = CassetteConfiguration(URL(fileURLWithPath: path), matcher: matcher, allowRepeats: cassetteOptions.repeat,
                                                          origin: origin, wording: context, environment: environment)
                if replay != nil {
                    configuration.mode = .replayOnly
                    configuration.ignoresModeOverride = true
                } else {
                    configuration.mode = mode.flatMap(RecordMode.init(rawValue:))
                }
                configuration.maxAge = try ExpiryOptions.maxAge(expiryOptions.maxAge, environment: environment)
                configuration.onExpiry = try expiryOptions.policy()
                do {
                    let opened = try CassetteSession(configuration, live: transport)
                    for warning in opened.cassette.warnings { Console.warning(warning) }
                    session = opened
                    modeDescription = "\(opened.mode == .replayOnly ? "replay" : "record") \((path as NSString).lastPathComponent)"
                } catch CassetteError.expiry(.expired(let report)) {
                    Console.error((ExpiryError.expired(report: report).errorDescription ?? report)
                        + "\nto see what changed: tapedeck cassette verify \(path) (--update keeps the live answers)")
                    return 3
                } catch {
                    Console.error(error.localizedDescription)
                    return 3
                }
            }
            if let session {
                transport = session.transport
                options.base = session.baseURL
                // Scripts recorded one after another, with no names on their interactions, need
                // them back in recorded order when they send the same request: one at a time.
                if let replayed = session.cassette.replay?.cassette, scripts.count > 1, options.jobs > 1,
                   replayed.interactions.contains(where: { $0.recordedBy == nil }) {
                    if jobs != nil {
                        Console.warning("replaying \(session.path) one script at a time: it was recorded without script names, so scripts "
                            + "that send the same request need its answers in recorded order; record it again with tapedeck run --record "
                            + "to replay it with --jobs")
                    }
                    options.jobs = 1
                }
            }
            let errors = ShellOutput(handle: .standardError)
            let progress = scripts.count > 1 && isatty(STDERR_FILENO) == 1 ? errors : nil
            let runner = ScriptRunner(transport: transport, output: ShellOutput { Console.write($0) },
                                      errors: errors, progress: progress, options: options)
            runner.cassettes = try cassetteOptions.sessions(environment: environment)
            runner.modeDescription = modeDescription
            // Ctrl-C (or SIGTERM) stops the scripts, and what ran is still summed up, recorded
            // and reported; a second one quits at once.
            let stop = ServerRunner.catchStopSignals()
            let running = Task { @MainActor in await runner.run(scripts) }
            let interrupt = Task {
                await stop.wait()
                running.cancel()
            }
            let summary = await running.value
            let interrupted = running.isCancelled
            interrupt.cancel()
            var code = interrupted ? 130 : summary.exitCode
            if let session {
                do { errors.line(try session.finish()) } catch {
                    Console.error(error.localizedDescription)
                    if code == 0 { code = 3 }
                }
            }
            var files: [(option: String, url: URL, data: () -> Data)] = []
            for case let (option, path?, text) in [("--report-junit", reportJUnit, { JUnitReport.xml(for: summary) }),
                                                   ("--report-tap", reportTAP, { TAPReport.text(for: summary) })] {
                files.append((option, URL(fileURLWithPath: path), { Data(text().utf8) }))
            }
            if let reportJSON { files.append(("--report-json", URL(fileURLWithPath: reportJSON), { RunReport.json(for: summary) })) }
            if let reportHTML {
                for (name, data) in RunReport.html(for: summary).sorted(by: { $0.key < $1.key }) {
                    files.append(("--report-html", URL(fileURLWithPath: reportHTML).appendingPathComponent(name), { data }))
                }
            }
            for file in files {
                do {
                    try OutputPath.write(file.data(), to: file.url)
                } catch {
                    Console.error("cannot write the \(file.option) report \(file.url.path): \(error.reason)")
                    if code == 0 { code = 3 }
                }
            }
            return code
        }
    }
}
