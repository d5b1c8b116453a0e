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
    /// The exchanges it sent, in order, when the run keeps them for a report.
    public var exchanges: [ScriptExchange] = []

    /// The exchange at `index` redacted as a cassette stores it (credential headers, query items,
    /// JSON members, URL passwords, and this script's known secrets wherever they appear).
    public func redactedExchange(_ index: Int) -> (request: HTTPRequest, response: HTTPResponse) {
        let exchange = exchanges[index]
        // Redacted as a whole cassette is: a token only its shape gives away (a JWT or a vendor
        // key in any header) goes too.
        var interaction = Redactor.standard.redacting(Cassette(interactions: [Interaction(request: exchange.request, response: exchange.response,
                                                                                          recordedAt: Date())]),
                                                      knownSecrets: secrets).cassette.interactions[0]
        // Header values lose what free text does too (`Bearer …` under any name).
        interaction.request.headers = HTTPHeaders(interaction.request.headers.map { HTTPHeader(name: $0.name, value: redacted($0.value)) })
        interaction.response.headers = HTTPHeaders(interaction.response.headers.map { HTTPHeader(name: $0.name, value: redacted($0.value)) })
        // A text body of any type also loses what free text does: bearer tokens, JWTs and
        // credential pairs (`password=…`) that no field rule names.
        interaction.request.body = interaction.request.body.map(redactedText)
        interaction.response.body = redactedText(interaction.response.body)
        return (interaction.request, interaction.response)
    }

    /// `body` with ``redacted(_:)`` applied when it is UTF-8 text; as it is otherwise.
    private func redactedText(_ body: Data) -> Data {
        guard !body.isEmpty, let text = String(validating: body, as: UTF8.self) else { return body }
        let redacted = redacted(text)
        return redacted == text ? body : Data(redacted.utf8)
    }

    /// The text as a report may write it: credentials replaced as in cassettes (``Redactor``),
    /// command-line credentials too (``CommandRedaction``), and this script's known secrets.
    public func redacted(_ text: String) -> String {
        Redactor.standard.redact(text: CommandRedaction.redact(text).text, knownSecrets: secrets)
    }

    /// `error`'s message as a report may write it (``redacted(_:)``). A failed `expect ==` whose
    /// two values read the same once redacted says that only a credential differs, rather
    /// than showing two equal values.
    public func redactedMessage(_ error: ShellError) -> String {
        guard case .assertionFailed(var failure) = error, let note = credentialNote(failure) else { return redacted(error.localizedDescription) }
        failure.note = [failure.note, note].compactMap { $0 }.joined(separator: "; ")
        return redacted(ShellError.assertionFailed(failure).localizedDescription)
    }

    /// `failure`'s expected and actual values as a report may write them, the actual one
    /// noting when a credential is what tells them apart.
    public func redactedSides(_ failure: AssertionFailure) -> (expected: String, actual: String) {
        let actual = redacted(failure.actual)
        return (redacted(failure.expected), credentialNote(failure).map { actual + " (" + $0 + ")" } ?? actual)
    }

    /// What a failure says when redaction hides what tells its values apart: an `==` whose two
    /// sides read the same redacted, or a `contains`, `startsWith`, `endsWith` or `matches`
    /// whose text looked for is itself replaced; nil for any other.
    private func credentialNote(_ failure: AssertionFailure) -> String? {
        if failure.expected.hasPrefix("== ") {
            guard failure.expected != "== " + failure.actual, redacted(failure.expected) == "== " + redacted(failure.actual) else { return nil }
            return "only a credential differs, shown redacted on both sides"
        }
        let textual = ["contains ", "startsWith ", "endsWith ", "matches "].contains { failure.expected.hasPrefix($0) }
        return textual && redacted(failure.expected) != failure.expected ? "the text looked for holds a credential, shown redacted" : nil
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
    /// Wall time of the whole run (nil: the scripts' durations added up).
    public var duration: TimeInterval?

    /// Creates a summary of `results` that took `duration` in all.
    public init(results: [ScriptResult], duration: TimeInterval? = nil) {
        self.results = results
        self.duration = duration
    }

    /// How many scripts passed.
    public var passed: Int { results.filter(\.passed).count }
    /// How many failed.
    public var failed: Int { results.count - passed }
    /// Requests sent by every script.
    public var requests: Int { results.reduce(0) { $0 + $1.requests } }
    /// The run's wall time.
    public var elapsed: TimeInterval { duration ?? results.reduce(0) { $0 + $1.duration } }

    /// `N passed, N failed · N requests (R/s) · duration`, as Hurl's `--test` summary counts them.
    public var line: String {
        let rate = elapsed > 0 ? String(format: "%.1f", Double(requests) / elapsed) : "0"
        return "\(passed) passed, \(failed) failed · \(requests) request\(requests == 1 ? "" : "s") (\(rate)/s) · "
            + ScriptRunner.milliseconds(elapsed)
    }

    /// 0 all passed · 2 a script did not parse · 3 a runtime error (network, cassette) ·
    /// 4 an assertion failed.
    public var exitCode: Int32 {
        let categories = results.compactMap(\.category)
        if categories.contains(.parse) { return 2 }
        if categories.contains(.runtime) { return 3 }
        return categories.isEmpty ? 0 : 4
    }
}
