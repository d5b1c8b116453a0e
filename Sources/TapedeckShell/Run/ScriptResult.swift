import Foundation
import Tapedeck

/// The outcome of one script (one test).
public struct ScriptResult: Sendable {
    /// The script's name as given on the command line (`-` is `<stdin>`).
    public var name: String
    /// Failures, in order; empty when the script passed.
    public var failures: [ShellError]
    /// Wall time.
    public var duration: TimeInterval
    /// Requests sent.
    public var requests: Int
    /// `expect`s evaluated.
    public var assertions: Int
    /// The credentials the script's exchanges carried; reports replace them wherever they appear.
    public var secrets: [String] = []

    /// The text as a report may write it: credentials replaced as in cassettes (``Redactor``),
    /// command-line credentials too (``CommandRedaction``), and this script's known secrets.
    public func redacted(_ text: String) -> String {
        Redactor.standard.redact(text: CommandRedaction.redact(text).text, knownSecrets: secrets)
    }

    /// Whether the script passed.
    public var passed: Bool { failures.isEmpty }

    /// The most serious failure category: parse, then runtime, then assertion.
    public var category: ShellError.Category? {
        let categories = failures.map(\.category)
        if categories.contains(.parse) { return .parse }
        if categories.contains(.runtime) { return .runtime }
        return categories.isEmpty ? nil : .assertion
    }
}

/// The outcome of a whole `tapedeck run`.
public struct RunSummary: Sendable {
    /// One result per script, in order.
    public var results: [ScriptResult]

    /// How many scripts passed.
    public var passed: Int { results.filter(\.passed).count }
    /// How many failed.
    public var failed: Int { results.count - passed }

    /// `N passed, N failed`.
    public var line: String { "\(passed) passed, \(failed) failed" }

    /// 0 all passed · 2 a script did not parse · 3 a runtime error (network, cassette) ·
    /// 4 an assertion failed.
    public var exitCode: Int32 {
        let categories = results.compactMap(\.category)
        if categories.contains(.parse) { return 2 }
        if categories.contains(.runtime) { return 3 }
        return categories.isEmpty ? 0 : 4
    }
}
