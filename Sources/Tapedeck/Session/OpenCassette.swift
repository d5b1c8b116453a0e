import Foundation

/// A cassette opened by ``CassetteConfiguration/open(live:)``: the transport to send through,
/// what it played and recorded, and ``flush()`` to write what was recorded.
///
/// Replay-only cassettes are a plain ``ReplayTransport``: the file is read once and nothing is
/// written beside it (no lock file, no journal, no exit hook). Every other mode is a
/// ``RecordingTransport`` around the live transport.
public final class OpenCassette: Sendable {
    /// Recorded, played, unused and total counts.
    public struct Counts: Sendable, Hashable {
        /// Interactions recorded by this session.
        public var recorded: Int
        /// Responses served from the cassette (repeats counted).
        public var played: Int
        /// Interactions loaded from the file that were never served.
        public var unused: Int
        /// Interactions the cassette holds now.
        public var total: Int

        /// Creates counts.
        public init(recorded: Int, played: Int, unused: Int, total: Int) {
            self.recorded = recorded
            self.played = played
            self.unused = unused
            self.total = total
        }
    }

    /// The configuration in effect, with the environment applied (``CassetteConfiguration/resolved()``).
    public let configuration: CassetteConfiguration
    /// The replay of a replay-only cassette (mode `none`); nil when recording.
    public let replay: ReplayTransport?
    /// The recorder of a recording cassette (modes `once`, `new`, `all`); nil for replay only.
    public let recorder: RecordingTransport?
    /// Send requests through this: the replay or the recorder, with the configuration's
    /// network conditions played over it.
    public let transport: any HTTPTransport
    /// What the front-end should show the user once (an expiry warning); the library never prints.
    public let warnings: [String]

    init(configuration: CassetteConfiguration, replay: ReplayTransport?, recorder: RecordingTransport?, warnings: [String]) {
        self.configuration = configuration
        self.replay = replay
        self.recorder = recorder
        self.warnings = warnings
        let base: any HTTPTransport
        if let recorder {
            base = recorder
        } else if let replay {
            base = replay
        } else {
            base = OfflineTransport()
        }
        if let conditions = configuration.conditions, !conditions.isEmpty {
            transport = ConditionedTransport(inner: base, conditions: conditions)
        } else {
            transport = base
        }
    }

    /// The cassette file.
    public var url: URL { configuration.url }
    /// The mode in effect.
    public var mode: RecordMode { configuration.resolvedMode }
    /// Whether requests without a match may reach the network (any mode but `none`).
    public var isRecording: Bool { recorder != nil }

    /// The cassette as the file holds it (for a recording, what was recorded so far included),
    /// at its recorded origin even when it is served at another. A replay keeps only the copy
    /// it serves, so for one served at another origin this rewrites it back on each call.
    public var cassette: Cassette {
        if let recorder { return recorder.cassette }
        guard let replay else { return Cassette() }
        guard let rewrite = replay.originRewrite else { return replay.cassette }
        return replay.cassette.rewritingOrigin(from: rewrite.served, to: rewrite.recorded)
    }

    /// The cassette as served and how to read its URLs' text as the file holds it, without a
    /// copy: what a usage record fingerprints.
    package var servedWithFileURLs: (cassette: Cassette, fileURL: (String) -> String) {
        if let recorder { return (recorder.cassette, { $0 }) }
        guard let replay else { return (Cassette(), { $0 }) }
        guard let rewrite = replay.originRewrite else { return (replay.cassette, { $0 }) }
        let back = Cassette.originReplacements(from: rewrite.served, to: rewrite.recorded)
        return (replay.cassette, { Cassette.apply(back, to: $0) })
    }

    /// Recorded, played, unused and total counts.
    public var counts: Counts {
        if let recorder { return recorder.counts }
        guard let replay else { return Counts(recorded: 0, played: 0, unused: 0, total: 0) }
        return Counts(recorded: 0, played: replay.playedCount, unused: replay.unusedInteractions.count,
                      total: replay.cassette.interactions.count)
    }

    /// Indexes of interactions loaded from the file that were never served, in order.
    public var unusedInteractions: [Int] { recorder?.unusedInteractions ?? replay?.unusedInteractions ?? [] }

    /// Whether anything is replayed from what the file held (not in mode `all`, nor into a new cassette).
    package var replaysFromFile: Bool { replay != nil || recorder?.replaysFromFile == true }

    /// The lines naming never-played interactions, or "".
    public func unusedReport() -> String { recorder?.unusedReport() ?? replay?.unusedReport() ?? "" }

    /// Writes what was recorded into the cassette file, atomically (``RecordingTransport/flush()``);
    /// nothing for a replay.
    public func flush() throws(CassetteError) {
        try recorder?.flush()
    }
}
