import Foundation
import Tapedeck

/// What the REPL, scripts, `tapedeck run` and the server hold while a cassette is in use: the
/// cassette opened from its ``Tapedeck/CassetteConfiguration``, the mode, the counts, a
/// ``transport`` to send through, and ``finish()`` to write and report.
///
/// ```swift
/// // record PATH --mode new
/// var recording = CassetteConfiguration(URL(fileURLWithPath: "Sessions/api.cassette.json"), mode: .new, wording: FixContext.repl)
/// let session = try CassetteSession(recording, live: URLSessionTransport(options: .init(followRedirects: false)))
/// // replay PATH --repeat
/// var replaying = CassetteConfiguration.replaying(URL(fileURLWithPath: "Sessions/tour.cassette.json"))
/// replaying.allowRepeats = true
/// let offline = try CassetteSession(replaying)
/// let response = try await offline.transport.send(request)
/// print(offline.status)          // replay Sessions/tour.cassette.json · 0 recorded · 1 played · 5 unused · 6 in cassette
/// print(try offline.finish())    // the same line, then the never-played interactions
/// ```
package final class CassetteSession: Sendable {
    /// A snapshot for the `tape` command.
    package struct Status: Sendable, Hashable, CustomStringConvertible {
        /// `record` (modes once/new/all) or `replay` (mode none).
        package var kind: String
        /// The mode in effect.
        package var mode: RecordMode
        /// The cassette path as given.
        package var path: String
        /// Recorded, played, unused and total counts.
        package var counts: OpenCassette.Counts

        /// `record Sessions/a.cassette.json (mode new) · 2 recorded · 3 played · 1 unused · 9 in cassette`.
        package var description: String {
            let modeText = kind == "replay" ? "" : " (mode \(mode))"
            return "\(kind) \(FixContext.display(path))\(modeText) · \(counts.recorded) recorded · \(counts.played) played · "
                + "\(counts.unused) unused · \(counts.total) in cassette"
        }
    }

    /// The cassette path as given (relative paths are resolved against the working directory).
    package let path: String
    /// The open cassette: replay, recorder, counts.
    package let cassette: OpenCassette
    /// The mode in effect (after `TAPEDECK_RECORD_MODE`).
    package var mode: RecordMode { cassette.mode }
    /// Send requests through this.
    package var transport: any HTTPTransport { cassette.transport }

    /// Opens the cassette `configuration` describes (``Tapedeck/CassetteConfiguration/open(live:)``),
    /// sending what must be recorded through `live`.
    package init(_ configuration: CassetteConfiguration, live: any HTTPTransport = OfflineTransport()) throws(CassetteError) {
        path = configuration.url.path
        cassette = try configuration.open(live: live)
    }

    /// The base URL stored in the cassette's metadata (at the replay `origin`, when one is set);
    /// the REPL adopts it when it has no base.
    package var baseURL: URL? {
        // A replay rewritten to the origin already holds its base there; the file's view would
        // be a copy of the whole cassette rewritten back.
        if let replay = cassette.replay, replay.originRewrite != nil { return replay.cassette.baseURL }
        let recorded = cassette.cassette
        guard let base = recorded.baseURL, let origin = cassette.configuration.origin, let from = recorded.recordedOrigin else {
            return recorded.baseURL
        }
        return URL(string: Cassette.apply(Cassette.originReplacements(from: from, to: origin), to: base.absoluteString))
    }

    /// Mode, path and counts.
    package var status: Status {
        Status(kind: mode == .replayOnly ? "replay" : "record", mode: mode, path: path, counts: cassette.counts)
    }

    /// Writes anything recorded (atomically) and what was played (``CassetteUsage``, for
    /// `tapedeck cassette prune`), and returns the status line plus the never-played
    /// interactions, one per line.
    ///
    /// Only a failure to write the cassette throws. The usage record is auxiliary: when it
    /// cannot be written (say `~/.cache` is read-only), the text ends with a `warning:` line
    /// naming the directory and the fix (`TAPEDECK_USAGE_DIR`) instead.
    @discardableResult
    package func finish(environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) -> String {
        try cassette.flush()
        let usageWarning = cassette.writeUsage(environment: environment)
        let unused = cassette.unusedReport()
        let lines = [status.description] + (unused.isEmpty ? [] : [unused]) + (usageWarning.map { [$0] } ?? [])
        return lines.joined(separator: "\n")
    }
}
