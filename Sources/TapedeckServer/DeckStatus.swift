import Foundation

/// What `GET /__tapedeck/status` answers.
public struct DeckStatus: Sendable, Codable, Hashable {
    /// One cassette's counts.
    public struct CassetteStatus: Sendable, Codable, Hashable {
        /// The path as given.
        public var path: String
        /// The mount prefix (`/` for all paths).
        public var mount: String
        /// The record mode (`none` when replaying).
        public var mode: String
        /// Whether it records new interactions.
        public var recording: Bool
        /// Interactions recorded so far.
        public var recorded: Int
        /// Responses served from the file.
        public var played: Int
        /// Interactions in the file never served.
        public var unused: Int
        /// Interactions the cassette holds.
        public var total: Int
    }

    /// The origin clients address.
    public var origin: String
    /// Every loaded cassette.
    public var cassettes: [CassetteStatus]
    /// Unmatched requests so far.
    public var unmatched: Int
    /// `METHOD target` of the last unmatched requests, oldest first.
    public var lastMismatches: [String]
}
