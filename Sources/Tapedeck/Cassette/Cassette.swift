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
    /// Free-form facts about the recording, such as ``MetadataKey/baseURL``; written sorted.
    public var metadata: [String: String]

    /// Creates a cassette.
    public init(version: Int = Cassette.currentVersion, interactions: [Interaction] = [],
                metadata: [String: String] = [:]) {
        self.version = version
        self.interactions = interactions
        self.metadata = metadata
    }

    /// Well-known ``metadata`` keys.
    public enum MetadataKey {
        /// The base URL the requests were composed against; the REPL adopts it when it has none.
        public static let baseURL = "baseURL"
        /// What recorded the cassette, e.g. `tapedeck 0.1`.
        public static let recordedWith = "recordedWith"
    }

    /// The recorded base URL (``MetadataKey/baseURL``), if any and valid.
    public var baseURL: URL? {
        get { metadata[MetadataKey.baseURL].flatMap { try? URLComposer.parseBase($0) } }
        set { metadata[MetadataKey.baseURL] = newValue?.absoluteString }
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
    /// The transport failure met instead of a response, when one was recorded; `response` is
    /// then a placeholder (status 0) and replay throws the failure's error.
    public var failure: TransportFailure?
    /// The script (or test) that recorded it, when several shared one recording
    /// (``CassetteScope``): a replay gives each its own interactions back, whatever order
    /// they ran in. Nil: anyone's.
    public var recordedBy: String?

    /// Creates an interaction.
    public init(request: HTTPRequest, response: HTTPResponse, recordedAt: Date = Date(), failure: TransportFailure? = nil,
                recordedBy: String? = nil) {
        self.request = request
        self.response = response
        self.recordedAt = recordedAt
        self.failure = failure
        self.recordedBy = recordedBy
    }
}
