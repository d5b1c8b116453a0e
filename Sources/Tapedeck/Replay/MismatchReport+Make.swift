import Foundation

extension MismatchReport {
    /// Builds the report for `request` (already redacted by `redactor`) against `interactions`.
    /// `known` scrubs the values the cassette holds in credential fields anywhere.
    static func make(request: HTTPRequest, interactions: [Interaction], known: SecretScrubber = SecretScrubber([]), uses: [Int], exact: [Int],
                     path: String, matcher: Matcher, redactor: Redactor = .standard, mode: RecordMode?, context: any FixWording) -> MismatchReport {
        // Recorded requests are shown as `request` is: a cassette that was never redacted (a
        // browser's HAR) shows no credential it holds, by the session's own rules, nor one
        // another of its interactions holds.
        func shown(_ index: Int) -> HTTPRequest { redactor.redact(interactions[index].request, known: known).request }
        var skipped: [String] = []
        if let last = exact.last {
            skipped.append("#\(last) \(summary(shown(last))) was already played "
                + "(\(exact.count) of \(exact.count) used); identical requests are served in recorded order")
        }
        // Cheap pre-ranking on method and path, then full diffs for the closest few.
        let incoming = NormalizedURL(request.storedURL)
        let preRanked = interactions.indices.lazy.filter { !exact.contains($0) }.map { index -> (Int, Int) in
            let recorded = interactions[index].request
            var score = recorded.method == request.method ? 0 : 10
            let url = NormalizedURL(recorded.storedURL)
            if url.origin != incoming.origin { score += 8 }
            if url.path != incoming.path { score += 4 }
            return (score, index)
        }.sorted { $0 < $1 }.prefix(24)
        let diffs = preRanked.map { _, index in
            let recorded = shown(index)
            return (index, RequestDiff(recorded: recorded, incoming: request, matcher: matcher), recorded)
        }.sorted { ($0.1.distance, $0.0) < ($1.1.distance, $1.0) }.prefix(3)
        let nearest = diffs.map { index, diff, recorded in
            // Not a match, yet nothing differs as shown: what differs is a credential the
            // cassette holds unredacted, and both sides show it replaced.
            Candidate(index: index, summary: summary(recorded) + (uses[index] > 0 ? " (played \(uses[index])×)" : ""),
                      differences: diff.lines.isEmpty ? [credentialOnly] : diff.lines)
        }
        var fixes: [CassetteFix] = []
        let shown = DisplayPath.relative(path)
        if !exact.isEmpty { fixes.append(.allowRepeats(path: shown, mode: mode)) }
        if let change = matcherChange(diffs.first?.1, matcher) {
            fixes.append(.changeMatcher(reason: change.reason, option: change.option, spec: change.spec, path: shown, mode: mode))
        }
        if let (index, best, _) = diffs.first, best.kinds == [.origin] {
            fixes.append(.serveAtOrigin(recorded: NormalizedURL(interactions[index].request.storedURL).origin, sent: incoming.origin,
                                        path: shown, mode: mode))
        }
        fixes.append(.record(path: shown, mode: mode))
        return MismatchReport(request: request, cassettePath: path, interactionCount: interactions.count, mode: mode,
                              matching: matcher.summary, nearest: Array(nearest), skipped: skipped, suggested: fixes, context: context)
    }

    /// The matcher option that would have let the nearest interaction match, when only one kind of field differs.
    /// `option` is the Swift expression, `spec` the whole changed matcher as a `--match` spec.
    private static func matcherChange(_ best: RequestDiff?, _ matcher: Matcher) -> (reason: String, option: String, spec: String)? {
        guard let best else { return nil }
        let quoted = { (names: [String]) in names.map { "\"\($0)\"" }.joined(separator: ", ") }
        var changed = matcher
        if best.kinds == [.query] {
            let names = best.lines.compactMap { $0.split(separator: ":").first?.dropFirst("query ".count) }.map(String.init)
            changed.ignoredQueryItems.formUnion(names)
            return ("if those query items don't matter, ignore them", "Matcher(ignoredQueryItems: [\(quoted(names))])", changed.spec)
        }
        if best.kinds == [.header] {
            let kept = matcher.headers.filter { name in !best.lines.contains { $0.hasPrefix("header \(name):") } }
            changed.headers = kept
            return ("if those headers don't matter, stop comparing them", "Matcher(headers: [\(quoted(kept))])", changed.spec)
        }
        if best.kinds == [.body], matcher.body == .raw {
            changed.body = .json
            return ("if only the JSON layout differs, compare bodies as JSON", "Matcher(body: .json)", changed.spec)
        }
        return nil
    }

    /// What a candidate that differs only in a credential says, and the fix.
    static let credentialOnly = "only a credential differs, shown redacted on both sides: the cassette holds it unredacted; "
        + "redact the cassette, and replay matches any value in its place"

    /// `METHOD URL` of a request as reports show it: a credential in its URL redacted (a
    /// cassette that was never redacted, such as a browser's HAR, may hold one).
    static func summary(_ request: HTTPRequest) -> String {
        "\(request.method) \(Redactor.shown(request.url))"
    }
}
