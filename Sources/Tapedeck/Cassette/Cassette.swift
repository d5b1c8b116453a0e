import Foundation

/// A recorded sequence of HTTP exchanges: what a recording session writes and a replay
/// session serves.
///
/// The model holds plain bytes; the codecs (native JSON, vcrpy YAML, HAR) decide how bodies
/// look on disk.
public struct Cassette: Sendable, Hashable {
    /// The native format version this model corresponds to.
    public static let currentVersion = 1

    /// The format version read from or written to disk.
    public var version: Int
    /// The exchanges, in the order they happened.
    public var interactions: [Interaction]

    /// Creates a cassette.
    public init(version: Int = Cassette.currentVersion, interactions: [Interaction] = []) {
        self.version = version
        self.interactions = interactions
    }
}

/// One request and the response it got.
public struct Interaction: Sendable, Hashable {
    /// The request as sent (after redaction, when read from disk).
    public var request: HTTPRequest
    /// The response as received; its `duration` is the time the exchange took.
    public var response: HTTPResponse
    /// When the exchange happened.
    public var recordedAt: Date

    /// Creates an interaction.
    public init(request: HTTPRequest, response: HTTPResponse, recordedAt: Date = Date()) {
        self.request = request
        self.response = response
        self.recordedAt = recordedAt
    }
}
