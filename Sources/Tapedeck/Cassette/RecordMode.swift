import Foundation

/// When a cassette session records and when it replays.
///
/// | mode | cassette present | cassette missing |
/// |---|---|---|
/// | `once` | replay only | record everything |
/// | `new` | replay matches, record the rest | record everything |
/// | `all` | record everything (the file is replaced) | record everything |
/// | `none` | replay only; unmatched is an error | error |
///
/// `TAPEDECK_RECORD_MODE` overrides the mode chosen in code; with `CI=true` the default is `none`.
///
/// ```swift
/// let mode = try RecordMode.resolve(nil)          // .once locally, .replayOnly on CI
/// let mode = try RecordMode.resolve(.new)         // .new unless TAPEDECK_RECORD_MODE says otherwise
/// ```
public enum RecordMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Record when the cassette is missing, otherwise replay only.
    case once
    /// Replay what matches, record the rest and append it.
    case new
    /// Always send live and record; the file is replaced.
    case all
    /// Replay only; a request with no match fails with a report. Typed `none` on the command
    /// line and in `TAPEDECK_RECORD_MODE`; named `replayOnly` in Swift so that it never reads as
    /// `Optional.none`.
    case replayOnly = "none"

    /// The environment variable that overrides the mode chosen in code.
    public static let environmentKey = "TAPEDECK_RECORD_MODE"

    /// The raw value, as typed.
    public var description: String { rawValue }

    /// The mode in effect: `TAPEDECK_RECORD_MODE` if set, else `requested`, else `none` when
    /// `CI` is `true`/`1` and `once` otherwise.
    public static func resolve(_ requested: RecordMode?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(CassetteError) -> RecordMode {
        if let override = environment[environmentKey]?.trimmingCharacters(in: .whitespaces), !override.isEmpty {
            guard let mode = RecordMode(rawValue: override.lowercased()) else {
                throw .invalidRecordMode(value: override, source: environmentKey)
            }
            return mode
        }
        if let requested { return requested }
        let ci = environment["CI"]?.lowercased()
        return ci == "true" || ci == "1" ? .replayOnly : .once
    }

    /// Parses a user-typed mode (`new`), naming `source` (where it was typed, such as an option) in the error.
    public init(parsing text: String, source: String = "RecordMode(parsing:)") throws(CassetteError) {
        guard let mode = RecordMode(rawValue: text.lowercased()) else {
            throw .invalidRecordMode(value: text, source: source)
        }
        self = mode
    }
}
