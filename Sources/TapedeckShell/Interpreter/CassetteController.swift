import Foundation
import Tapedeck

/// What the interpreter calls for `record`, `replay`, `live` and `tape`; whoever wires the
/// cassette library in provides it, so the shell depends on no recording API.
public struct CassetteController: Sendable {
    /// Where requests go after a `record` or `replay`.
    public struct Switch: Sendable {
        /// The transport to send through.
        public var transport: any HTTPTransport
        /// The prompt's mode description (`record tour.cassette.json`).
        public var mode: String
        /// The base URL the cassette was recorded against, if it says.
        public var baseURL: URL?

        /// Creates a switch.
        public init(transport: any HTTPTransport, mode: String, baseURL: URL? = nil) {
            self.transport = transport
            self.mode = mode
            self.baseURL = baseURL
        }
    }

    /// Starts recording `path` (mode once/new/all/none or nil for the default) around the
    /// live transport, noting the session's base URL; returns where requests go now.
    public var record: @Sendable (_ path: String, _ mode: String?, _ live: any HTTPTransport, _ base: URL?) async throws -> Switch
    /// Starts replaying `path` (`repeats`: serve the last match again once all were played);
    /// returns the transport and the mode description.
    public var replay: @Sendable (_ path: String, _ repeats: Bool) async throws -> Switch
    /// Finishes the current cassette (writes a recording, reports unused replays); returns a
    /// line for the user, if any.
    public var finish: @Sendable () async throws -> String?
    /// A description of the current cassette state for `tape`.
    public var status: @Sendable () async -> String

    /// Creates a controller from its four operations.
    public init(
        record: @escaping @Sendable (String, String?, any HTTPTransport, URL?) async throws -> Switch,
        replay: @escaping @Sendable (String, Bool) async throws -> Switch,
        finish: @escaping @Sendable () async throws -> String?,
        status: @escaping @Sendable () async -> String
    ) {
        self.record = record
        self.replay = replay
        self.finish = finish
        self.status = status
    }
}
