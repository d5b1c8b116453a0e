import Foundation
import Synchronization
import TapedeckOpenAPI
import Tapedeck

/// Runs `.tape` scripts as tests for `tapedeck run`: each script gets a fresh session, stops
/// at its first failure unless told to continue, and reports failures with their location.
///
/// ```swift
/// let runner = ScriptRunner(transport: URLSessionTransport(), output: .init(handle: .standardOutput),
///                           errors: .init(handle: .standardError))
/// let summary = await runner.run([ScriptSource(name: "smoke.tape", text: text)])
/// exit(summary.exitCode)
/// ```
@MainActor
public final class ScriptRunner {
    /// How scripts run.
    public struct Options: Sendable {
        /// Variables from `--var` and `--env-file`, set before each script.
        public var variables: [String: String] = [:]
        /// The environment `{{env.NAME}}` reads.
        public var environment: [String: String] = ProcessInfo.processInfo.environment
        /// Whether a script goes on after a failure.
        public var continueOnError = false
        /// Whether responses are printed (`-vv`).
        public var echoResponses = false
        /// Where a line per request goes (`-v`).
        public var requestLog: ShellOutput?
        /// Seconds each request may take (`--timeout`).
        public var timeout: TimeInterval = 30
        /// Whether redirects are followed (`--follow`).
        public var followRedirects = false
        /// Whether TLS verification is off (`--insecure`; shown by `show curl`).
        public var insecure = false
        /// Whether output uses colours.
        public var colors = false
        /// The base URL each script starts with (e.g. the one a replayed cassette recorded).
        public var base: URL?
        /// The OpenAPI document each script starts with (`--openapi`); responses that break it
        /// get a warning on the error output.
        package var openAPI: OpenAPIGuide?
        /// Where a script read from stdin resolves relative paths.
        public var workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        /// How many scripts run at once (`--jobs`); 1 runs them one after another, printing as they go.
        public var jobs = 1
        /// Whether each result keeps its exchanges (``ScriptResult/exchanges``), for reports.
        public var keepsExchanges = false

        /// Creates default options.
        public init() {}
    }

    private let transport: any HTTPTransport
    private let output: ShellOutput
    private let errors: ShellOutput
    private let progress: ShellOutput?
    private let options: Options
    /// Cassette operations for `record`/`replay` lines inside scripts.
    public var cassettes: CassetteController?
    /// The prompt-style mode each session starts in (e.g. `replay tour`).
    public var modeDescription = "live"

    /// Creates a runner; `progress` (stderr on a terminal) gets one line per script.
    public init(transport: any HTTPTransport, output: ShellOutput, errors: ShellOutput,
                progress: ShellOutput? = nil, options: Options = Options()) {
        self.transport = transport
        self.output = output
        self.errors = errors
        self.progress = progress
        self.options = options
    }

    /// Runs every script and prints the summary: `N passed, N failed`, then the requests,
    /// requests per second and duration. With ``Options/jobs`` above 1 scripts run side by
    /// side and each one's output is printed whole when it and every script before it are done.
    public func run(_ scripts: [ScriptSource]) async -> RunSummary {
        let clock = ContinuousClock()
        let start = clock.now
        var results: [ScriptResult] = []
        if options.jobs <= 1 || scripts.count <= 1 {
            for (index, script) in scripts.enumerated() {
                // Cancelled (Ctrl-C): the scripts not begun are not run.
                if Task.isCancelled { break }
                progress?.line("[\(index + 1)/\(scripts.count)] \(script.name)")
                let result = await CassetteScope.$name.withValue(script.scopeName) {
                    await run(script, output: output, errors: errors, cassettes: cassettes, requestLog: options.requestLog)
                }
                report(result, index: index, of: scripts.count, errors: errors)
                results.append(result)
            }
        } else {
            results = await runSideBySide(scripts)
        }
        let summary = RunSummary(results: results, duration: Self.seconds(clock.now - start))
        output.line(summary.line)
        return summary
    }

    /// Runs up to ``Options/jobs`` scripts at once, each with its own buffered output and
    /// cassette commands, and prints each script's output in the order the scripts were given.
    private func runSideBySide(_ scripts: [ScriptSource]) async -> [ScriptResult] {
        var finished: [Int: (ScriptResult, ScriptBuffer)] = [:]
        var printed = 0
        var results: [ScriptResult] = []
        await withTaskGroup(of: (Int, ScriptResult, ScriptBuffer).self) { group in
            var next = 0
            while next < min(options.jobs, scripts.count) {
                group.addTask(operation: job(next, scripts[next], of: scripts.count))
                next += 1
            }
            while let (index, result, buffer) = await group.next() {
                finished[index] = (result, buffer)
                if next < scripts.count, !Task.isCancelled {
                    group.addTask(operation: job(next, scripts[next], of: scripts.count))
                    next += 1
                }
                while let (done, buffer) = finished.removeValue(forKey: printed) {
                    buffer.replay(to: output, errors: errors)
                    report(done, index: printed, of: scripts.count, errors: errors)
                    results.append(done)
                    printed += 1
                }
            }
        }
        return results
    }

    /// Runs the script at `index` with its own buffered output and cassette commands.
    private func job(_ index: Int, _ script: ScriptSource, of count: Int) -> @Sendable @MainActor () async -> (Int, ScriptResult, ScriptBuffer) {
        { @MainActor in
            self.progress?.line("[\(index + 1)/\(count)] \(script.name)")
            let buffer = ScriptBuffer()
            let result = await CassetteScope.$name.withValue(script.scopeName) {
                await self.run(script, output: buffer.output, errors: buffer.errors, cassettes: self.cassettes?.fresh(),
                               requestLog: self.options.requestLog.map { _ in buffer.output })
            }
            return (index, result, buffer)
        }
    }

    /// A finished script's failures, and its progress line on a terminal.
    private func report(_ result: ScriptResult, index: Int, of count: Int, errors: ShellOutput) {
        // A blank line between failures keeps multi-line expect reports apart.
        // Redacted as the reports are: a failure may quote a URL, a header or a body with a credential.
        if !result.failures.isEmpty { errors.line(result.failures.map(result.redactedMessage).joined(separator: "\n\n")) }
        progress?.line("[\(index + 1)/\(count)] \(result.name): \(result.passed ? "passed" : "FAILED") (\(Self.milliseconds(result.duration)))")
    }

    /// Runs one script in a fresh session.
    public func run(_ script: ScriptSource) async -> ScriptResult {
        await CassetteScope.$name.withValue(script.scopeName) {
            await run(script, output: output, errors: errors, cassettes: cassettes, requestLog: options.requestLog)
        }
    }

    /// Runs one script in a fresh interpreter writing to `output` and `errors`.
    private func run(_ script: ScriptSource, output: ShellOutput, errors: ShellOutput, cassettes: CassetteController?,
                     requestLog: ShellOutput?) async -> ScriptResult {
        let clock = ContinuousClock()
        let start = clock.now
        let interpreter = Interpreter(transport: transport, output: output, options: Interpreter.Options(
            environment: options.environment,
            workingDirectory: script.directory ?? options.workingDirectory,
            echoResponses: options.echoResponses, colors: options.colors,
            continueOnError: options.continueOnError, timeout: options.timeout,
            followRedirects: options.followRedirects, insecure: options.insecure,
            requestLog: requestLog
        ))
        interpreter.cassettes = cassettes
        interpreter.modeDescription = modeDescription
        interpreter.state.variables = options.variables
        interpreter.fixedVariables = Set(options.variables.keys)
        interpreter.state.base = options.base
        interpreter.openAPI = options.openAPI
        interpreter.options.warnings = errors
        interpreter.keepsExchanges = options.keepsExchanges
        var failures: [ShellError] = []
        do throws(ShellError) {
            let statements: [Statement]
            do {
                statements = try Parser.parseScript(script.text, file: script.name)
            } catch {
                throw .parse(error)
            }
            interpreter.includeStack = script.directory.map { [$0.appendingPathComponent(URL(fileURLWithPath: script.name).lastPathComponent)] } ?? []
            try await interpreter.run(statements)
        } catch {
            failures.append(error)
        }
        return ScriptResult(
            name: script.name, failures: interpreter.failures + failures,
            duration: Self.seconds(clock.now - start),
            requests: interpreter.counts.requests, assertions: interpreter.counts.assertions,
            secrets: interpreter.secrets.secrets, exchanges: interpreter.exchanges
        )
    }

    nonisolated static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    nonisolated static func milliseconds(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.2f s", seconds)
    }
}

/// One script's output while it runs beside others: standard output and errors kept in the
/// order they were written, printed together when the script's turn comes.
private final class ScriptBuffer: Sendable {
    private let lines = Mutex<[(toErrors: Bool, text: String)]>([])

    var output: ShellOutput { ShellOutput { text in self.lines.withLock { $0.append((false, text)) } } }
    var errors: ShellOutput { ShellOutput { text in self.lines.withLock { $0.append((true, text)) } } }

    func replay(to output: ShellOutput, errors: ShellOutput) {
        for line in lines.withLock({ $0 }) { (line.toErrors ? errors : output).line(line.text) }
    }
}

/// A script to run: its name for messages and reports, its text, and its folder.
public struct ScriptSource: Sendable {
    /// The name shown in messages and reports (the path as given, or `<stdin>`).
    public var name: String
    /// The script text.
    public var text: String
    /// The folder relative paths start from (nil: the working directory).
    public var directory: URL?

    /// Creates a source.
    public init(name: String, text: String, directory: URL? = nil) {
        self.name = name
        self.text = text
        self.directory = directory
    }

    /// The name its recorded interactions carry (``CassetteScope``): the path as given, without
    /// a leading `./`, so `x/s.tape` and `y/s.tape` keep their own answers. A replay under a
    /// name the cassette does not hold (the script moved) is served from all interactions.
    public var scopeName: String {
        var path = name
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path
    }

    /// Reads a script file; the error names the path.
    public static func file(_ path: String) throws(ShellError) -> ScriptSource {
        let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
        do {
            let text = try String(contentsOf: url, encoding: .utf8)
            return ScriptSource(name: path, text: text, directory: url.deletingLastPathComponent())
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw .includeUnreadable(path: path, reason: exists ? "it is not readable UTF-8 text" : "no such file",
                                     at: SourceLocation(file: path, line: 0, column: 0))
        }
    }
}
