import Foundation
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

    /// Runs every script in order and prints the `N passed, N failed` line.
    public func run(_ scripts: [ScriptSource]) async -> RunSummary {
        var results: [ScriptResult] = []
        for (index, script) in scripts.enumerated() {
            progress?.line("[\(index + 1)/\(scripts.count)] \(script.name)")
            let result = await run(script)
            // A blank line between failures keeps multi-line expect reports apart.
            if !result.failures.isEmpty { errors.line(result.failures.map(\.localizedDescription).joined(separator: "\n\n")) }
            progress?.line("[\(index + 1)/\(scripts.count)] \(script.name): \(result.passed ? "passed" : "FAILED") (\(Self.milliseconds(result.duration)))")
            results.append(result)
        }
        let summary = RunSummary(results: results)
        output.line(summary.line)
        return summary
    }

    /// Runs one script in a fresh session.
    public func run(_ script: ScriptSource) async -> ScriptResult {
        let clock = ContinuousClock()
        let start = clock.now
        let interpreter = Interpreter(transport: transport, output: output, options: Interpreter.Options(
            environment: options.environment,
            workingDirectory: script.directory ?? options.workingDirectory,
            echoResponses: options.echoResponses, colors: options.colors,
            continueOnError: options.continueOnError, timeout: options.timeout,
            followRedirects: options.followRedirects, insecure: options.insecure,
            requestLog: options.requestLog
        ))
        interpreter.cassettes = cassettes
        interpreter.modeDescription = modeDescription
        interpreter.state.variables = options.variables
        interpreter.fixedVariables = Set(options.variables.keys)
        interpreter.state.base = options.base
        interpreter.openAPI = options.openAPI
        interpreter.options.warnings = errors
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
        let elapsed = clock.now - start
        return ScriptResult(
            name: script.name, failures: interpreter.failures + failures,
            duration: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            requests: interpreter.counts.requests, assertions: interpreter.counts.assertions,
            secrets: interpreter.secrets.secrets
        )
    }

    static func milliseconds(_ seconds: TimeInterval) -> String {
        seconds < 1 ? "\(Int((seconds * 1000).rounded())) ms" : String(format: "%.2f s", seconds)
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
