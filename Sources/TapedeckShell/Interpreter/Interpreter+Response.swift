import Foundation
import Tapedeck

extension Interpreter {
    /// Runs an `expect`; throws ``ShellError/assertionFailed(_:)`` with expected and actual.
    func check(_ assertion: Assertion, at location: SourceLocation) throws(ShellError) {
        let response = try currentResponse(for: "expect", at: location)
        countAssertion()
        let (actual, note) = try assertion.query.evaluate(on: response, argument: try queryArgument(assertion.query))
        let expected = try assertion.predicate.valueWord.map(expand)
        var passed = try assertion.predicate.test(actual, expected: expected, lenient: assertion.query.yieldsText)
        if assertion.negated { passed.toggle() }
        guard !passed else { return }
        let predicate = expected.map { assertion.predicate.replacingValue($0) } ?? assertion.predicate
        let shown = Assertion(query: assertion.query, predicate: predicate, negated: assertion.negated)
        // A value cut short is redacted first (a report redacts what it shows again): a token cut
        // short would no longer be recognised, and its start would be shown.
        let known = secrets.secrets
        let redacting = { (text: String) in Redactor.standard.redact(text: text, knownSecrets: known) }
        var shownActual = ValueLiteral.describe(actual, limit: 120, redacting: redacting)
        var shownNote = actual == nil ? note : nil
        if case .count = predicate, let actual {
            if let size = Predicate.size(actual) {
                shownActual = "count \(size) in \(shownActual)"
            } else {
                shownNote = "count needs an array, an object or a string; compare the value itself with == instead"
            }
        }
        // A long expected value is cut as the actual one is: a 5 MB `contains` is not printed
        // twice into the log and every report.
        throw .assertionFailed(AssertionFailure(
            assertion: Excerpt.cut(shown.description, limit: Self.shownAssertion, redacting: redacting), query: assertion.query.description,
            expected: Excerpt.cut((assertion.negated ? "not " : "") + predicate.description, limit: Self.shownAssertion, redacting: redacting),
            actual: shownActual, note: shownNote, location: location,
            exchange: lastExchange
        ))
    }

    /// The response of the last request; throws when none was sent or the last one failed
    /// (an older response is never checked in its place).
    func currentResponse(for command: String, at location: SourceLocation) throws(ShellError) -> HTTPResponse {
        if let failure = state.lastFailure { throw .requestFailed(command: command, failure: failure, at: location) }
        guard let response = state.lastResponse else { throw .noResponse(command: command, at: location) }
        return response
    }

    /// The most characters of an assertion, or of what it expected, a failure message quotes.
    static let shownAssertion = 400

    /// `GET http://host/json → 200 OK` for the last request and response.
    private var lastExchange: String? {
        guard let request = state.lastRequest, let response = state.lastResponse else { return nil }
        let reason = response.reason.isEmpty ? HTTPResponse.reasonPhrase(for: response.status) : response.reason
        return "\(request.method) \(Redactor.shown(request.url)) → \(response.status) \(reason)"
    }

    /// Runs a `capture`: the query's value becomes a variable (strings raw, others as JSON).
    func capture(_ name: String, _ query: ResponseQuery, at location: SourceLocation) throws(ShellError) {
        let response = try currentResponse(for: "capture", at: location)
        let (value, note) = try query.evaluate(on: response, argument: try queryArgument(query))
        guard let value else {
            throw .assertionFailed(AssertionFailure(
                assertion: "capture \(name) = \(query)", query: query.description, expected: "a value to capture",
                actual: "(missing)", note: note, location: location, exchange: lastExchange
            ))
        }
        state.variables[name] = ValueLiteral.text(value)
    }

    /// The query's argument with templates expanded.
    private func queryArgument(_ query: ResponseQuery) throws(ShellError) -> String? {
        switch query {
        case .header(let word), .json(let word), .regex(let word), .event(let word, _): try expand(word)
        case .status, .body, .duration, .url, .events, .chunks: nil
        }
    }

    /// `show request|response|headers|curl|state`.
    func show(_ target: Command.ShowTarget, at location: SourceLocation) throws(ShellError) {
        switch target {
        case .request, .curl:
            guard let request = state.lastRequest else { throw .noResponse(command: "show \(target.rawValue)", at: location) }
            output.line(target == .curl ? CurlCommand.render(request, options: state.lastSend, insecure: options.insecure)
                                        : renderer(.all).render(request))
        case .response:
            let response = try currentResponse(for: "show response", at: location)
            output.line(render(response, options.colors))
        case .headers:
            let response = try currentResponse(for: "show headers", at: location)
            output.line(renderer(.responseHeaders).render(response))
        case .state:
            // Values may come from a server (a captured header): shown, never obeyed.
            output.line(TerminalText.visible(describeState()))
        }
    }

    private func renderer(_ parts: PrintParts) -> ResponseRenderer {
        ResponseRenderer(options: RenderOptions(colors: options.colors, parts: parts))
    }

    private func describeState() -> String {
        var lines = [
            "base:    \(state.base?.absoluteString ?? "(none; set one with 'base URL')")",
            "path:    \(state.path)",
            "mode:    \(modeDescription)",
        ]
        lines.append("headers: " + (state.headers.isEmpty ? "(none)" : state.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n         ")))
        lines.append("query:   " + (state.query.isEmpty ? "(none)" : state.query.map(\.encoded).joined(separator: "&")))
        lines.append("vars:    " + (state.variables.isEmpty ? "(none)" : state.variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")))
        let timeout = options.timeout > 0 ? "timeout \(String(format: "%g", options.timeout)) s" : "no timeout"
        lines.append("send:    \(timeout) · redirects \(options.followRedirects ? "followed" : "not followed (--follow)")"
            + (options.insecure ? " · TLS not verified" : ""))
        if let failure = state.lastFailure {
            lines.append("last:    \(failure)")
        } else if let response = state.lastResponse, let request = state.lastRequest {
            lines.append("last:    \(request.method) \(request.urlText) → \(response.status) \(response.reason)")
        }
        return lines.joined(separator: "\n")
    }
}

extension Predicate {
    /// The same predicate with its value word's text replaced (to show expanded values).
    func replacingValue(_ text: String) -> Predicate {
        func swap(_ word: Word) -> Word { Word(text, quoted: word.quoted, location: word.location) }
        switch self {
        case .compare(let op, let word): return .compare(op, swap(word))
        case .contains(let word): return .contains(swap(word))
        case .startsWith(let word): return .startsWith(swap(word))
        case .endsWith(let word): return .endsWith(swap(word))
        case .matches(let word): return .matches(swap(word))
        case .count(let op, let word): return .count(op, swap(word))
        case .exists, .isType: return self
        }
    }
}
