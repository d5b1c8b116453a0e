import Foundation

/// The result of verifying a cassette: a line per interaction, then each drift field by field.
///
/// ```
/// #0 GET http://127.0.0.1:8000/users.json → 200  unchanged
/// #1 GET http://127.0.0.1:8000/user.json → 200  drifted (2 changes)
///
/// #1 GET http://127.0.0.1:8000/user.json drifted (recorded → live):
///     body /email: string → (absent) [removed]
///     body /age: number → string [retyped]
/// 1 unchanged, 1 drifted, 0 failed
/// ```
public struct VerifyReport: Sendable, Hashable {
    /// The cassette path, for the text.
    public var path: String
    /// One entry per interaction, in cassette order.
    public var interactions: [VerifiedInteraction]

    /// Creates a report.
    public init(path: String, interactions: [VerifiedInteraction]) {
        self.path = path
        self.interactions = interactions
    }

    /// Indexes of drifted interactions.
    public var drifted: [Int] { interactions.filter { if case .drifted = $0.outcome { true } else { false } }.map(\.index) }
    /// Indexes of interactions whose request failed.
    public var failed: [Int] { interactions.filter { if case .failed = $0.outcome { true } else { false } }.map(\.index) }

    /// 0 when nothing drifted or failed, 3 when a request failed (the transport), else 4 when something drifted.
    public var exitCode: Int32 {
        if !failed.isEmpty { return 3 }
        return drifted.isEmpty ? 0 : 4
    }

    /// The per-interaction lines, the drift details and a count line.
    public func render() -> String {
        var lines: [String] = []
        for entry in interactions {
            // Status 0 is a recorded transport failure (connection refused), not an answer.
            let head = "#\(entry.index) \(entry.request.method) \(entry.request.urlText) → \(entry.recordedStatus == 0 ? "(failed)" : "\(entry.recordedStatus)")"
            switch entry.outcome {
            case .unchanged: lines.append("\(head)  unchanged")
            case .drifted(let drifts, _):
                lines.append("\(head)  drifted (\(drifts.count) change\(drifts.count == 1 ? "" : "s"))")
            case .failed(let message): lines.append("\(head)  failed: \(message)")
            case .skipped(let reason): lines.append("\(head)  skipped (\(reason))")
            }
        }
        for entry in interactions {
            guard case .drifted(let drifts, _) = entry.outcome else { continue }
            lines.append("")
            lines.append("#\(entry.index) \(entry.request.method) \(entry.request.urlText) drifted (recorded → live):")
            lines += drifts.map { "    \($0)" }
        }
        let skipped = interactions.count - drifted.count - failed.count
            - interactions.filter { $0.outcome == .unchanged }.count
        lines.append("\(interactions.filter { $0.outcome == .unchanged }.count) unchanged, \(drifted.count) drifted, "
            + "\(failed.count) failed" + (skipped > 0 ? ", \(skipped) skipped" : "") + " · \(path)")
        // Member names and values come from the live server and the cassette: a line break or
        // an escape in one is shown, so it cannot forge a line of the report or move the cursor.
        return lines.map { ControlText.visible($0, keepLineBreaks: false) }.joined(separator: "\n")
    }
}
