import Tapedeck

/// What the interpreter calls for `record`, `replay`, `live` and `tape`; whoever wires the
/// cassette library in provides it, so the shell depends on no recording API.
public struct CassetteController: Sendable {
    /// Starts recording `path` (mode once/new/all/none or nil for the default) around the
    /// live transport; returns the transport to use and the prompt's mode description.
    public var record: @Sendable (_ path: String, _ mode: String?, _ live: any HTTPTransport) async throws -> (transport: any HTTPTransport, mode: String)
    /// Starts replaying `path`; returns the transport and the mode description.
    public var replay: @Sendable (_ path: String) async throws -> (transport: any HTTPTransport, mode: String)
    /// Finishes the current cassette (writes a recording, reports unused replays); returns a
    /// line for the user, if any.
    public var finish: @Sendable () async throws -> String?
    /// A description of the current cassette state for `tape`.
    public var status: @Sendable () async -> String

    /// Creates a controller from its four operations.
    public init(
        record: @escaping @Sendable (String, String?, any HTTPTransport) async throws -> (transport: any HTTPTransport, mode: String),
        replay: @escaping @Sendable (String) async throws -> (transport: any HTTPTransport, mode: String),
        finish: @escaping @Sendable () async throws -> String?,
        status: @escaping @Sendable () async -> String
    ) {
        self.record = record
        self.replay = replay
        self.finish = finish
        self.status = status
    }
}
