import Foundation
import Tapedeck

/// Where a mismatch report, a secret-lint refusal or a missing-cassette error will be read,
/// so that its fix names only what works there: a REPL command, a `tapedeck run` command
/// line, or a `swift test` invocation and a TapedeckTesting option.
///
/// ```swift
/// var configuration = CassetteConfiguration(URL(fileURLWithPath: "Sessions/api.cassette.json"))
/// configuration.wording = FixContext.run(scripts: ["smoke.tape"])
/// // fix:
/// //   - record it: tapedeck run smoke.tape --record Sessions/api.cassette.json --mode new
/// ```
package enum FixContext: Sendable, Hashable {
    /// The interactive prompt (and `record`/`replay` lines in a `.tape` script): fixes are commands.
    case repl
    /// `tapedeck run SCRIPTS --record C` or `--replay C`: fixes are command lines.
    case run(scripts: [String])
    /// A user's unit tests through TapedeckTesting: fixes are `swift test` invocations and
    /// Swift options; `filter` is the test to name in `swift test --filter`, when known.
    case unitTests(filter: String?)
    /// `tapedeck serve` and `tapedeck proxy`: fixes are their command lines; `upstream` is the
    /// server to record from, when known.
    case server(upstream: String?)

    /// The re-record fix for `path`; `mode` is nil for a replay-only session made in code (`URLSession.replaying`).
    func recordFix(path: String, mode: RecordMode?) -> String {
        switch self {
        case .repl:
            return "record it: record \(Self.word(path)) --mode new, then send the request again"
        case .run:
            let command = "\(runCommand) --record \(Self.word(path))"
            let environment = mode == .once ? " (or TAPEDECK_RECORD_MODE=new \(command))" : ""
            return "record it: \(command) --mode new" + environment
        case .unitTests:
            let command = "TAPEDECK_RECORD_MODE=new \(swiftTest)"
            guard mode != nil else {
                return "record it: URLSession.replaying never records; open the cassette with withCassette(…) or "
                    + "URLSession.recording(to: …) instead, then run \(command)"
            }
            return "record it: \(command)"
        case .server(let upstream):
            return "record it: tapedeck proxy \(Self.word(upstream ?? "UPSTREAM")) --record \(Self.word(path)) --mode new, "
                + "and send the request through the proxy"
        }
    }

    /// The fix for a missing cassette in replay-only mode.
    func missingFix(path: String) -> String {
        switch self {
        case .repl: return "record it first: record \(Self.word(path))"
        case .run: return "record it first: \(runCommand) --record \(Self.word(path))"
        case .unitTests: return "record it first: TAPEDECK_RECORD_MODE=once \(swiftTest)"
        case .server(let upstream): return "record it first: tapedeck proxy \(Self.word(upstream ?? "UPSTREAM")) --record \(Self.word(path))"
        }
    }

    /// The fix when every exact match was already played; nil where repeats cannot be turned on
    /// (a recording session records the repeat instead). A replay's mode is `none`, or nil when
    /// no environment can turn it into a recording (`replay PATH`, `run --replay`, `serve`).
    func repeatFix(path: String, mode: RecordMode?) -> String? {
        let replaying = mode == nil || mode == .replayOnly
        switch self {
        case .repl:
            return replaying ? "allow reusing the last match: replay \(Self.word(path)) --repeat" : nil
        case .run:
            return replaying ? "allow reusing the last match: \(runCommand) --replay \(Self.word(path)) --repeat" : nil
        case .server:
            return replaying ? "allow reusing the last match: tapedeck serve \(Self.word(path)) --repeat" : nil
        case .unitTests:
            return "allow reusing the last match: pass allowRepeats: true to withCassette, .cassette or URLSession.replaying"
        }
    }

    /// The fix that changes the matcher: `option` is the Swift expression (`Matcher(ignoredQueryItems: ["ts"])`),
    /// `spec` the `--match` spec of the whole changed matcher; nil at the prompt, where it cannot be changed.
    func matcherFix(_ reason: String, _ option: String, spec: String, path: String, mode: RecordMode?) -> String? {
        switch self {
        case .repl: return nil
        case .run: return "\(reason): \(runCommand) \(Self.cassetteOption(path: path, mode: mode)) --match \(Self.word(spec))"
        case .unitTests: return "\(reason): pass matcher: \(option) to withCassette, .cassette or URLSession.replaying"
        case .server: return "\(reason): tapedeck serve \(Self.word(path)) --match \(Self.word(spec))"
        }
    }

    /// The fix when only the origin differs (the cassette was recorded at another host or port).
    func originFix(recorded: String, sent: String, path: String, mode: RecordMode?) -> String? {
        switch self {
        case .repl:
            return "send to where the cassette was recorded: base \(recorded)"
        case .run:
            return "serve the cassette at the origin you send to: \(runCommand) \(Self.cassetteOption(path: path, mode: mode)) "
                + "--origin \(Self.word(sent))"
        case .server:
            return "serve the cassette at the origin you send to: tapedeck serve \(Self.word(path)) --origin \(Self.word(sent))"
        case .unitTests:
            return "serve the cassette at the origin you send to: pass origin: URL(string: \"\(sent)\")! "
                + "to withCassette, .cassette or URLSession.replaying"
        }
    }

    /// `--replay PATH` for a replay-only session, else `--record PATH --mode MODE`.
    private static func cassetteOption(path: String, mode: RecordMode?) -> String {
        guard let mode, mode != .replayOnly else { return "--replay \(word(path))" }
        return "--record \(word(path)) --mode \(mode.rawValue)"
    }

    /// How to redact the fields the lint named, or to turn the lint off for a false alarm.
    func lintFixes(_ findings: [SecretLint.Finding]) -> [String] {
        let redactions = SecretLint.Redactions(findings)
        let unredactable = redactions.unredactable
        switch self {
        case .repl, .run, .server:
            let list = redactions.names
            let again = self == .repl ? "quit and start tapedeck again" : "run again"
            var lines: [String] = []
            if !list.isEmpty {
                lines.append("redact them: \(again) with TAPEDECK_REDACT=\(Self.word(list.joined(separator: ","))) in the environment")
            }
            // What the client sends can be left out; what the server sends (a response, an
            // event, a server's frame) cannot, from this side.
            let sent = unredactable.filter { $0.hasPrefix("request") || $0.hasPrefix("client") }
            let received = unredactable.filter { !sent.contains($0) }
            if !sent.isEmpty {
                lines.append("\(sent.joined(separator: ", ")) cannot be redacted by name; leave the credential out of the request")
            }
            if !received.isEmpty {
                lines.append("\(received.joined(separator: ", ")) cannot be redacted by name, and the server sends it; "
                    + "record against an account whose credentials may be kept")
            }
            lines.append("for a false alarm: \(again) with TAPEDECK_SECRET_LINT=off in the environment")
            return lines
        case .unitTests:
            var lines: [String] = []
            if let redactor = redactions.redactorExpression {
                lines.append("redact them: pass redactor: \(redactor) to withCassette or .cassette "
                    + "(URLSession.recording(to: …) { $0.redactor = … })")
            }
            if !unredactable.isEmpty {
                lines.append("\(unredactable.joined(separator: ", ")) cannot be redacted by name; "
                    + "rewrite it in URLSession.recording(to: …) { $0.beforeRecord = { interaction in … } }")
            }
            lines.append("for a false alarm: URLSession.recording(to: …) { $0.lint = false }")
            return lines
        }
    }

    private var runCommand: String {
        guard case .run(let scripts) = self, !scripts.isEmpty else { return "tapedeck run SCRIPT.tape" }
        return "tapedeck run " + scripts.map(Self.word).joined(separator: " ")
    }

    private var swiftTest: String {
        guard case .unitTests(let filter?) = self, !filter.isEmpty else { return "swift test --filter TEST_NAME" }
        return "swift test --filter \(Self.word(filter))"
    }

    /// A path or value as one shell word: single-quoted when it holds anything a shell would split or expand.
    static func word(_ text: String) -> String {
        ShellWord.quote(text)
    }

    /// `path` relative to the working directory when it lies inside it (what a user typed), else as is.
    static func display(_ path: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        DisplayPath.relative(path, to: workingDirectory)
    }
}
