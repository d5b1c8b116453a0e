import Foundation

/// How long a replayed answer waits before it is delivered.
///
/// ```swift
/// try Latency(parsing: "recorded")   // each interaction's recorded duration
/// try Latency(parsing: "250")        // 250 ms for every answer
/// try Latency(parsing: "x0.5")       // half the recorded duration
/// ```
public enum Latency: Sendable, Hashable {
    /// No added delay.
    case none
    /// The duration the exchange took when it was recorded.
    case recorded
    /// A fixed delay in milliseconds.
    case fixed(milliseconds: Double)
    /// The recorded duration times this factor.
    case scaled(Double)

    /// Parses `recorded`, `MS` or `xFACTOR`, naming `source` in the error.
    public init(parsing text: String, source: String = "latency") throws(ConditionsError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "recorded" {
            self = .recorded
        } else if trimmed.hasPrefix("x"), let factor = Double(trimmed.dropFirst()), factor.isFinite, factor >= 0 {
            self = .scaled(factor)
        } else if let milliseconds = Double(trimmed.hasSuffix("ms") ? String(trimmed.dropLast(2)) : trimmed),
                  milliseconds.isFinite, milliseconds >= 0 {
            self = milliseconds == 0 ? .none : .fixed(milliseconds: milliseconds)
        } else {
            throw .invalidLatency(value: text, source: source)
        }
    }

    /// When a recorded chunk (``BodyChunk``) that arrived `offset` seconds after its head is
    /// delivered, counted from the head: at its recorded time (`recorded`), scaled (`xFACTOR`),
    /// or at once (no latency, or a fixed delay, which applies to the head only).
    public func chunkOffset(_ offset: TimeInterval) -> TimeInterval {
        switch self {
        case .none, .fixed: 0
        case .recorded: max(0, offset)
        case .scaled(let factor): max(0, offset) * factor
        }
    }

    /// The delay for a response whose recorded duration is `recordedDuration` seconds.
    public func delay(recordedDuration: TimeInterval) -> TimeInterval {
        switch self {
        case .none: 0
        case .recorded: max(0, recordedDuration)
        case .fixed(let milliseconds): milliseconds / 1000
        case .scaled(let factor): max(0, recordedDuration) * factor
        }
    }
}
