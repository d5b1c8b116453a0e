import Foundation
import Synchronization

/// Sends every request live and compares each answer with the interaction a replay would have
/// served: the testing library's verify mode (`TAPEDECK_RECORD_MODE=verify`). The caller gets
/// the live response; ``report`` collects what drifted.
///
/// ```swift
/// let verifying = VerifyingTransport(cassette: cassette, path: url.path, live: URLSessionTransport())
/// _ = try await verifying.send(request)
/// if verifying.report.exitCode != 0 { print(verifying.report.render()) }
/// ```
public final class VerifyingTransport: HTTPTransport, Sendable {
    /// The cassette compared against.
    public let cassette: Cassette
    /// Its path, for the report.
    public let path: String
    private let verifier: CassetteVerifier
    private let matcher: Matcher
    private let index: [String: [Int]]
    private let state = Mutex<(used: Set<Int>, entries: [VerifiedInteraction])>((used: [], entries: []))

    /// Creates a verifying transport; every method is sent (the test sends it anyway).
    public init(cassette: Cassette, path: String, live: any HTTPTransport, matcher: Matcher = Matcher(),
                drift: DriftOptions = DriftOptions(), redactor: Redactor = .standard) {
        self.cassette = cassette
        self.path = path
        self.matcher = matcher
        let everyMethod = Set(cassette.interactions.map(\.request.method))
        verifier = CassetteVerifier(live: live, options: .init(methods: everyMethod, drift: drift,
                                                               credentials: CredentialFill(variables: [:], environment: [:]),
                                                               redactor: redactor))
        var index: [String: [Int]] = [:]
        for (position, interaction) in cassette.interactions.enumerated() {
            index[matcher.key(for: interaction.request), default: []].append(position)
        }
        self.index = index
    }

    /// Sends `request` live; a request the cassette has no interaction for is reported as drift.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let compared = verifier.options.redactor.redact(request)
        let candidates = (index[matcher.key(for: compared)] ?? []).filter {
            matcher.refines(recorded: cassette.interactions[$0].request, incoming: compared)
        }
        let chosen: Int? = state.withLock { state in
            guard let pick = candidates.first(where: { !state.used.contains($0) }) ?? candidates.last else { return nil }
            state.used.insert(pick)
            return pick
        }
        let response = try await verifier.live.send(request)
        let redacted = verifier.options.redactor.redact(Interaction(request: request, response: response)).response
        let entry: VerifiedInteraction
        if let chosen {
            let drifts = ResponseDrift.compare(recorded: cassette.interactions[chosen].response, live: redacted,
                                               options: verifier.options.drift)
            entry = VerifiedInteraction(index: chosen, request: cassette.interactions[chosen].request,
                                        recordedStatus: cassette.interactions[chosen].response.status,
                                        outcome: drifts.isEmpty ? .unchanged : .drifted(drifts, live: redacted))
        } else {
            let drift = Drift(kind: .added, field: "interaction", recorded: nil, live: "a request the cassette does not hold")
            entry = VerifiedInteraction(index: cassette.interactions.count, request: compared, recordedStatus: 0,
                                        outcome: .drifted([drift], live: redacted))
        }
        state.withLock { $0.entries.append(entry) }
        return response
    }

    /// What was compared so far, in cassette order.
    public var report: VerifyReport {
        VerifyReport(path: path, interactions: state.withLock { $0.entries }.sorted { $0.index < $1.index })
    }
}
