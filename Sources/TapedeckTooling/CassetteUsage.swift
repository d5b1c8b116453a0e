import Foundation
import Tapedeck

/// What the last replay run of a cassette played, kept in the user's cache directory (see
/// ``url(for:environment:)``) so `tapedeck cassette prune` can drop what it never played.
///
/// ```swift
/// try CassetteUsage(cassette: cassette, unused: replay.unusedInteractions).write(for: url)
/// let usage = try CassetteUsage.read(for: url)
/// ```
package struct CassetteUsage: Sendable, Hashable {
    /// How many interactions the cassette had.
    package var interactionCount: Int
    /// Indexes never played in the run.
    package var unused: [Int]
    /// A digest of the requests (method and URL of each), to notice a cassette changed since.
    var fingerprint: String
    /// When the run ended.
    package var finishedAt: Date

    /// Usage of `cassette` in a run that left `unused` unplayed.
    /// `fileURL` gives each request's URL text as the file holds it, for a cassette served rewritten
    /// to another origin (``OpenCassette/servedWithFileURLs``).
    package init(cassette: Cassette, unused: [Int], finishedAt: Date = Date(), fileURL: (String) -> String = { $0 }) {
        interactionCount = cassette.interactions.count
        self.unused = unused.sorted()
        fingerprint = CassetteUsage.fingerprint(of: cassette, fileURL: fileURL)
        self.finishedAt = finishedAt
    }

    /// Where the usage of a cassette is kept: outside the source tree, so replay runs in tests
    /// never dirty a checkout. `$TAPEDECK_USAGE_DIR`, else `$XDG_CACHE_HOME/tapedeck/usage`,
    /// else `~/.cache/tapedeck/usage`; one file per cassette path, e.g. `tour.cassette.json-1a2b….json`.
    package static func url(for cassette: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let directory: URL
        if let custom = environment["TAPEDECK_USAGE_DIR"], !custom.isEmpty {
            directory = URL(fileURLWithPath: custom)
        } else if let cache = environment["XDG_CACHE_HOME"], !cache.isEmpty {
            directory = URL(fileURLWithPath: cache).appendingPathComponent("tapedeck/usage")
        } else {
            directory = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache/tapedeck/usage")
        }
        let path = cassette.standardizedFileURL.resolvingSymlinksInPath().path
        return directory.appendingPathComponent("\(cassette.lastPathComponent)-\(fnv1a(path)).json")
    }

    /// Whether this usage was recorded against `cassette` as it is now.
    package func matches(_ cassette: Cassette) -> Bool {
        interactionCount == cassette.interactions.count && fingerprint == CassetteUsage.fingerprint(of: cassette)
    }

    /// FNV-1a over every request's method and URL, as 16 hex digits.
    static func fingerprint(of cassette: Cassette, fileURL: (String) -> String = { $0 }) -> String {
        // Hashed line by line: the lines of 100,000 interactions are never joined into one text.
        var hash = fnv1aBasis
        for interaction in cassette.interactions {
            hash = fnv1a("\(interaction.request.method.rawValue) \(fileURL(interaction.request.urlText))\n", from: hash)
        }
        return hex(hash)
    }

    private static let fnv1aBasis: UInt64 = 0xCBF2_9CE4_8422_2325

    private static func fnv1a(_ text: String, from start: UInt64) -> UInt64 {
        var hash = start
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    private static func hex(_ hash: UInt64) -> String {
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private static func fnv1a(_ text: String) -> String {
        hex(fnv1a(text, from: fnv1aBasis))
    }

    /// Writes the sidecar for the cassette at `cassetteURL` atomically, in the directory
    /// ``url(for:environment:)`` picks from `environment`.
    package func write(for cassetteURL: URL,
                      environment: [String: String] = ProcessInfo.processInfo.environment) throws(InteropError) {
        let value: JSONValue = .object([
            ("cassette", .string(cassetteURL.standardizedFileURL.path)),
            ("finishedAt", .string(RFC3339Date.format(finishedAt, fractionDigits: 6))),
            ("interactions", JSONValue(interactionCount)),
            ("fingerprint", .string(fingerprint)),
            ("unused", .array(unused.map { JSONValue($0) })),
        ])
        var data: Data = JSONWriter.write(value, options: .pretty)
        data.append(0x0A)
        let url = CassetteUsage.url(for: cassetteURL, environment: environment)
        do {
            try FileAccess.writeAtomically(data, to: url)
        } catch {
            throw .io(file: url.path, reason: "cannot be written (\(error.reason))")
        }
    }

    /// Reads the sidecar of the cassette at `cassetteURL`.
    package static func read(for cassetteURL: URL,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws(InteropError) -> CassetteUsage {
        let url = CassetteUsage.url(for: cassetteURL, environment: environment)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .io(file: url.path, reason: "no usage record: replay \(cassetteURL.lastPathComponent) first "
                + "(tapedeck run --replay \(cassetteURL.path) …, or a test using it) so Tapedeck knows what was played")
        }
        // A record Tapedeck did not write whole is made again by the next replay.
        let fix = "; delete \(url.path) and replay \(cassetteURL.lastPathComponent) again to record its usage anew"
        do throws(InteropError) {
            let root = try JSONCursor.root(data, file: url.path)
            let count = try root.required("interactions").int()
            var unused: [Int] = []
            for element in try root.required("unused").array() {
                let index = try element.int()
                guard index >= 0, index < count else { throw element.failure("interaction \(index) is not one of the cassette's \(count)") }
                unused.append(index)
            }
            var usage = CassetteUsage(cassette: Cassette(), unused: unused)
            usage.interactionCount = count
            usage.fingerprint = try root.required("fingerprint").string()
            let finished = try root.required("finishedAt")
            guard let date = RFC3339Date.parse(try finished.string()) else { throw finished.failure("not an RFC 3339 timestamp") }
            usage.finishedAt = date
            return usage
        } catch {
            switch error {
            case .malformed(let file, let path, let problem): throw .malformed(file: file, path: path, problem: problem + fix)
            case .syntax(let file, let line, let column, let problem): throw .syntax(file: file, line: line, column: column, problem: problem + fix)
            default: throw error
            }
        }
    }
}

extension OpenCassette {
    /// Records what this run played (``CassetteUsage``) for `tapedeck cassette prune`; call it
    /// when the run ends, after ``flush()``. Does nothing when no cassette file exists, or when
    /// the run replayed nothing from it.
    ///
    /// The record is auxiliary: when it cannot be written (a read-only home or cache
    /// directory on CI) the run still succeeds, and this returns a one-line warning to show
    /// the user; `nil` means written (or nothing to write).
    package func writeUsage(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        // A run that replayed nothing (mode `all`, a new cassette) has no usage to record, and
        // need not read back a cassette it only appended to.
        guard replaysFromFile, FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let served = servedWithFileURLs
            try CassetteUsage(cassette: served.cassette, unused: unusedInteractions, fileURL: served.fileURL).write(for: url, environment: environment)
            return nil
        } catch {
            return "warning: usage record not saved, so `tapedeck cassette prune` cannot use this run: "
                + (error.errorDescription ?? "\(error)")
                + "; set TAPEDECK_USAGE_DIR to a writable directory (the cassette itself is fine)"
        }
    }
}
