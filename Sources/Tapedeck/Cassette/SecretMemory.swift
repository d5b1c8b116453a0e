import Foundation
import Synchronization

/// The secrets a session has seen so far, so a value redacted in one interaction is replaced
/// in every later one (a token from a login response reused in a URL) and an incoming
/// request carrying it matches the recorded placeholder. Thread-safe.
///
/// ```swift
/// let memory = SecretMemory()
/// let stored = memory.redact(interaction, with: .standard)   // learns its access_token
/// let compared = memory.redact(nextRequest, with: .standard) // /sessions/<token> → placeholder
/// ```
package final class SecretMemory: Sendable {
    private struct State {
        var values: [String] = []
        var known: Set<String> = []
        /// Built once per new secret, not per request (replay looks up on every request).
        var scrubber = SecretScrubber([])
    }

    private let state = Mutex(State())

    /// Creates an empty memory.
    package init() {}

    /// Every secret learned, in the order first seen.
    package var secrets: [String] { state.withLock { $0.values } }

    /// How many secrets are learned: the ones after a count taken before are the new ones.
    /// Read without the lock (a recorder asks after every record).
    package var count: Int { learned.load(ordering: .acquiring) }
    private let learned = Atomic<Int>(0)

    /// Remembers `values`; returns whether any was new.
    @discardableResult
    package func learn(_ values: [String]) -> Bool {
        state.withLock { state in
            var added = false
            for value in values where !value.isEmpty && state.known.insert(value).inserted {
                state.values.append(value)
                added = true
            }
            if added {
                state.scrubber = SecretScrubber(state.values)
                learned.store(state.values.count, ordering: .releasing)
            }
            return added
        }
    }

    /// The interaction redacted with everything known replaced too; learns its secrets.
    package func redact(_ interaction: Interaction, with redactor: Redactor) -> Interaction {
        let (result, found) = redactor.redact(interaction, knownSecrets: secrets)
        if !found.isEmpty { learn(found) }
        return result
    }

    /// The request as replay compares it, with everything known replaced too; learns its secrets.
    package func redact(_ request: HTTPRequest, with redactor: Redactor) -> HTTPRequest {
        let (result, found) = redactor.redact(request, known: state.withLock { $0.scrubber })
        if !found.isEmpty { learn(found) }
        return result
    }
}
