import Foundation

/// Re-sends a cassette's recorded requests to the live origin and compares the answers with
/// the recordings: `tapedeck cassette verify`.
///
/// Only the methods in ``Options/methods`` are sent (the safe ones unless told otherwise).
/// Placeholders left by redaction are filled by ``CredentialFill``. Requests go one at a time
/// in cassette order, as a script would send them.
///
/// ```swift
/// let verifier = CassetteVerifier(live: URLSessionTransport(options: .init(followRedirects: false)))
/// let report = await verifier.verify(cassette, path: "Sessions/api.cassette.json")
/// print(report.render())
/// let refreshed = verifier.updating(cassette, with: report)   // only drifted interactions change
/// ```
public struct CassetteVerifier: Sendable {
    /// What is sent and compared.
    public struct Options: Sendable {
        /// Methods sent; others are skipped.
        public var methods: Set<HTTPMethod>
        /// Send to this origin instead of the recorded one.
        public var origin: URL?
        /// What is compared.
        public var drift: DriftOptions
        /// Where credentials for placeholders come from.
        public var credentials: CredentialFill
        /// What is redacted from live responses before ``CassetteVerifier/updating(_:with:now:)`` keeps them.
        public var redactor: Redactor
        /// Hosts that may receive filled-in credentials (`--allow-credentials-to`). Empty: only
        /// the host an interaction was recorded against, and only when requests go there (no
        /// ``origin`` elsewhere). Named: these hosts and no others, which pins a CI run to the
        /// API it means to call whatever an edited cassette says.
        public var credentialHosts: Set<String>
        /// How a ``VerifyError`` reads in the report (the command line names its flags); nil:
        /// its own description.
        public var describe: (@Sendable (VerifyError) -> String)?
        /// How a live request's failure (a timeout, a refused connection) reads in the report;
        /// nil: its own description. Credentials it quotes are redacted either way.
        public var describeFailure: (@Sendable (any Error) -> String)?

        /// The methods verified unless told otherwise: they change nothing on the server.
        public static let safeMethods: Set<HTTPMethod> = [.get, .head, .options]

        /// Creates options; the defaults send the safe methods to the recorded origin.
        public init(methods: Set<HTTPMethod> = Options.safeMethods, origin: URL? = nil, drift: DriftOptions = DriftOptions(),
                    credentials: CredentialFill = CredentialFill(), redactor: Redactor = .standard,
                    credentialHosts: Set<String> = []) {
            self.methods = methods
            self.origin = origin
            self.drift = drift
            self.credentials = credentials
            self.redactor = redactor
            self.credentialHosts = Set(credentialHosts.map { $0.lowercased() })
        }

        /// Whether filled-in credentials may go to `sent`, for a request recorded as `recorded`.
        public func mayReceiveCredentials(_ sent: URL, recorded: URL) -> Bool {
            let host = sent.host?.lowercased() ?? ""
            if !credentialHosts.isEmpty {
                return credentialHosts.contains(host) || credentialHosts.contains(CassetteVerifier.authority(sent).lowercased())
            }
            return RedirectFollower.sameOrigin(sent, recorded)
        }

        /// Parses `--methods GET,HEAD,POST`.
        public static func methods(parsing text: String) throws(VerifyError) -> Set<HTTPMethod> {
            var methods = Set<HTTPMethod>()
            for word in text.split(separator: ",") {
                let trimmed = word.trimmingCharacters(in: .whitespaces)
                do { methods.insert(try HTTPMethod(validating: trimmed)) } catch { throw .invalidMethod(trimmed) }
            }
            if methods.isEmpty { throw .invalidMethod(text) }
            return methods
        }
    }

    /// Where requests go.
    public let live: any HTTPTransport
    /// What is sent and compared.
    public let options: Options

    /// Creates a verifier sending through `live` (which should not follow redirects, so each
    /// recorded hop is compared with its live counterpart).
    public init(live: any HTTPTransport, options: Options = Options()) {
        self.live = live
        self.options = options
    }

    /// Sends every verified interaction and compares; never throws, failures are outcomes.
    public func verify(_ cassette: Cassette, path: String) async -> VerifyReport {
        let sent = options.origin.map(cassette.rewritingOrigin(to:)) ?? cassette
        var entries: [VerifiedInteraction] = []
        entries.reserveCapacity(cassette.interactions.count)
        for (index, interaction) in sent.interactions.enumerated() {
            // Credentials belong to the cassette's own origin (its base URL, else its first
            // interaction's), not to whatever host one interaction names: an edited interaction
            // pointing elsewhere gets none.
            let recorded = cassette.recordedOrigin ?? cassette.interactions[index].request.url
            let outcome = await verify(interaction, index: index, recorded: recorded)
            // The report names the host actually contacted (placeholders still in place).
            entries.append(VerifiedInteraction(index: index, request: interaction.request,
                                               recordedStatus: interaction.response.status, outcome: outcome))
        }
        return VerifyReport(path: path, interactions: entries)
    }

    /// Verifies one interaction (already at the origin requests go to), recorded against
    /// `recorded` (its own URL when not given): credentials are filled only where
    /// ``Options/mayReceiveCredentials(_:recorded:)`` allows.
    public func verify(_ interaction: Interaction, index: Int, recorded: URL? = nil) async -> VerifyOutcome {
        guard options.methods.contains(interaction.request.method) else {
            return .skipped("\(interaction.request.method) is not among the methods verified")
        }
        let request: HTTPRequest
        let recorded = recorded ?? interaction.request.url
        do throws(VerifyError) {
            if let field = CredentialFill.placeholderField(in: interaction.request),
               !options.mayReceiveCredentials(interaction.request.url, recorded: recorded) {
                throw .credentialsToOtherHost(interaction: index, field: field, host: Self.authority(interaction.request.url),
                                              recordedHost: Self.authority(recorded), pinned: !options.credentialHosts.isEmpty)
            }
            request = try options.credentials.apply(to: interaction.request, interaction: index)
        } catch {
            return .failed(options.describe?(error) ?? error.errorDescription ?? "\(error)")
        }
        let response: HTTPResponse
        do {
            response = try await live.send(request)
        } catch {
            // A recorded transport failure met again the same way is what was recorded.
            if let recorded = interaction.failure, let http = error as? HTTPError, TransportFailure(http)?.kind == recorded.kind {
                return .unchanged
            }
            let message = options.describeFailure?(error) ?? (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            // The message may quote the request as sent, its credentials filled in.
            let filled = options.redactor.redact(request, knownSecrets: []).secrets
            return .failed(options.redactor.redact(text: message, knownSecrets: filled))
        }
        // Credentials the live response echoes are scrubbed before comparing and keeping.
        let redacted = options.redactor.redact(Interaction(request: request, response: response)).response
        if let recorded = interaction.failure {
            // It failed when it was recorded, and answers now.
            return .drifted([Drift(kind: .status, field: "status", recorded: "(\(recorded.kind.rawValue): \(recorded.detail))",
                                   live: "\(response.status)")], live: redacted)
        }
        let drifts = ResponseDrift.compare(recorded: interaction.response, live: redacted, options: options.drift)
        return drifts.isEmpty ? .unchanged : .drifted(drifts, live: redacted)
    }

    /// `host` or `host:port`, as a user names it.
    static func authority(_ url: URL) -> String { url.authority }

    /// The cassette with each drifted interaction's response replaced by the live one (its
    /// request, position and every other interaction untouched), recorded `now`.
    public func updating(_ cassette: Cassette, with report: VerifyReport, now: Date = Date()) -> Cassette {
        var updated = cassette
        let back: [(String, String)] = {
            guard let origin = options.origin, let recorded = cassette.recordedOrigin else { return [] }
            return Cassette.originReplacements(from: origin, to: recorded)
        }()
        for entry in report.interactions {
            guard case .drifted(_, let live) = entry.outcome, entry.index < updated.interactions.count else { continue }
            var interaction = updated.interactions[entry.index]
            interaction.response = live
            interaction.failure = nil
            interaction.recordedAt = now
            if !back.isEmpty {
                let request = interaction.request
                interaction = interaction.rewriting(back)
                interaction.request = request
            }
            updated.interactions[entry.index] = interaction
        }
        return updated
    }
}
