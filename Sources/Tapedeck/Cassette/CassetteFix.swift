import Foundation

/// A fix for a cassette failure, as data: what to change, not how to say it. A ``FixWording``
/// turns it into the lines a reader can act on where they read it (Swift options in app code,
/// a command at the REPL, a command line in a CI log).
///
/// ```swift
/// let report = replay.report(for: request)
/// report.suggested   // [.changeMatcher(…), .record(path: "Sessions/feed.cassette.json", mode: .once)]
/// ```
public enum CassetteFix: Sendable, Hashable {
    /// Record the request into the cassette at `path`; `mode` is the session's record mode, nil for a
    /// replay-only transport made in code (a ``ReplayTransport`` alone never records).
    case record(path: String, mode: RecordMode?)
    /// The cassette at `path` does not exist and the mode is replay-only: record it first.
    case recordMissing(path: String)
    /// Every exact match was already played: allow reusing the last one.
    case allowRepeats(path: String, mode: RecordMode?)
    /// Only one kind of field differs: change the matcher. `option` is the Swift expression
    /// (`Matcher(ignoredQueryItems: ["ts"])`), `spec` the whole changed matcher as a ``Matcher/spec``.
    case changeMatcher(reason: String, option: String, spec: String, path: String, mode: RecordMode?)
    /// Only the origin differs: the cassette was recorded at `recorded`, the request went to `sent`.
    case serveAtOrigin(recorded: String, sent: String, path: String, mode: RecordMode?)
    /// The secret lint found credentials: redact the fields named (``SecretLint/Redactions``) or turn the lint off.
    case redact([SecretLint.Finding])
    /// Where to see every interaction of the cassette at `path` (after a list of unused ones was cut short).
    case listInteractions(path: String)
}
