import Foundation
import Tapedeck

/// Compares two cassettes interaction by interaction, for reviewing a re-record.
///
/// Interactions are paired by method and URL (the n-th `GET /users` in one with the n-th
/// in the other); unpaired ones are added or removed, paired ones list their field changes,
/// JSON bodies by JSON Pointer.
///
/// ```swift
/// let diff = CassetteDiff(old, new, ignoredHeaders: ["Date"])
/// print(diff.render(oldName: "a.yaml", newName: "b.har"))
/// ```
package struct CassetteDiff: Sendable {
    /// One entry of the diff.
    package enum Entry: Sendable, Hashable {
        /// Only in the new cassette (its index there).
        case added(Int, summary: String)
        /// Only in the old cassette (its index there).
        case removed(Int, summary: String)
        /// In both, with field changes (`response.status: 200 → 404`).
        case changed(old: Int, new: Int, summary: String, changes: [String])
    }

    /// The entries in new-cassette order, removed ones where they were.
    package private(set) var entries: [Entry] = []
    /// How many paired interactions were identical.
    package private(set) var unchanged = 0

    /// Diffs `old` against `new`, ignoring the named headers (case-insensitive) on both sides.
    /// Both are compared redacted, a credential either holds replaced in both: the diff never
    /// shows one, and a token rotated by a re-record is no difference.
    package init(_ old: Cassette, _ new: Cassette, ignoredHeaders: Set<String> = []) {
        let (old, new) = Redactor.standard.redactingPair(old, new)
        let ignored = Set(ignoredHeaders.map { $0.lowercased() })
        var queues: [String: [Int]] = [:]
        for (index, interaction) in old.interactions.enumerated() { queues[Self.key(interaction), default: []].append(index) }
        var pairedOld = Set<Int>()
        var pairs: [(Int?, Int)] = []
        for (index, interaction) in new.interactions.enumerated() {
            let key = Self.key(interaction)
            if let first = queues[key]?.first {
                queues[key]?.removeFirst()
                pairedOld.insert(first)
                pairs.append((first, index))
            } else {
                pairs.append((nil, index))
            }
        }
        var nextOld = 0
        func flushRemoved(upTo limit: Int) {
            while nextOld < limit {
                if !pairedOld.contains(nextOld) {
                    entries.append(.removed(nextOld, summary: Self.summary(old.interactions[nextOld])))
                }
                nextOld += 1
            }
        }
        for (oldIndex, newIndex) in pairs {
            let interaction = new.interactions[newIndex]
            guard let oldIndex else {
                entries.append(.added(newIndex, summary: Self.summary(interaction)))
                continue
            }
            flushRemoved(upTo: oldIndex)
            let changes = Self.changes(old.interactions[oldIndex], interaction, ignored: ignored)
            if changes.isEmpty {
                unchanged += 1
            } else {
                entries.append(.changed(old: oldIndex, new: newIndex, summary: Self.summary(interaction), changes: changes))
            }
        }
        flushRemoved(upTo: old.interactions.count)
    }

    /// Whether the cassettes hold the same exchanges (ignoring dates and durations).
    package var isEmpty: Bool { entries.isEmpty }

    /// The diff as text: `~`, `-`, `+` lines with indented field changes, then a count line.
    package func render(oldName: String, newName: String) -> String {
        var lines = ["--- \(oldName)", "+++ \(newName)"]
        var counts = (changed: 0, removed: 0, added: 0)
        for entry in entries {
            switch entry {
            case let .added(index, summary):
                counts.added += 1
                lines.append("+ #\(index) \(summary)")
            case let .removed(index, summary):
                counts.removed += 1
                lines.append("- #\(index) \(summary)")
            case let .changed(old, new, summary, changes):
                counts.changed += 1
                lines.append("~ #\(old)\(old == new ? "" : " → #\(new)") \(summary)")
                lines += changes.map { "    \($0)" }
            }
        }
        lines.append("\(counts.changed) changed, \(counts.removed) removed, \(counts.added) added, \(unchanged) unchanged")
        // What the cassettes hold is shown, never obeyed: one line per entry, escapes visible.
        return lines.map { ControlText.visible($0, keepLineBreaks: false) }.joined(separator: "\n")
    }

    private static func key(_ interaction: Interaction) -> String {
        "\(interaction.request.method.rawValue) \(interaction.request.urlText)"
    }

    private static func summary(_ interaction: Interaction) -> String {
        "\(key(interaction)) → \(interaction.response.status)"
    }

    private static func changes(_ old: Interaction, _ new: Interaction, ignored: Set<String>) -> [String] {
        var changes: [String] = []
        if old.response.status != new.response.status {
            changes.append("response.status: \(old.response.status) → \(new.response.status)")
        }
        if old.response.reason != new.response.reason {
            changes.append("response.reason: \(quote(old.response.reason)) → \(quote(new.response.reason))")
        }
        changes += headerChanges(old.request.headers, new.request.headers, side: "request", ignored: ignored)
        changes += bodyChanges(old.request.body ?? Data(), new.request.body ?? Data(), side: "request")
        changes += headerChanges(old.response.headers, new.response.headers, side: "response", ignored: ignored)
        changes += bodyChanges(old.response.body, new.response.body, side: "response")
        changes += frameChanges(old.response.webSocket ?? [], new.response.webSocket ?? [])
        if (old.failure == nil) != (new.failure == nil) || old.failure?.kind != new.failure?.kind {
            let render = { (failure: TransportFailure?) in failure.map { $0.kind.rawValue } ?? "(none)" }
            changes.append("failure: \(render(old.failure)) → \(render(new.failure))")
        }
        return changes
    }

    /// A WebSocket session's frames, compared in order (their times are not).
    private static func frameChanges(_ old: [WebSocketMessage], _ new: [WebSocketMessage]) -> [String] {
        var changes: [String] = []
        for index in 0..<max(old.count, new.count) {
            let before = index < old.count ? old[index] : nil, after = index < new.count ? new[index] : nil
            guard before?.sender != after?.sender || before?.kind != after?.kind || before?.data != after?.data else { continue }
            var line = "response.webSocket[\(index)]: \(before.map(describe) ?? "(absent)") → \(after.map(describe) ?? "(absent)")"
            if let before, let after, describe(before) == describe(after) {
                let at = zip(before.data, after.data).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(before.data.count, after.data.count)
                line += " (they differ at byte \(at))"
            }
            changes.append(line)
        }
        return changes
    }

    /// A frame as a change line shows it: a text frame's text quoted, a binary frame's first
    /// bytes in hex, so two frames that differ never read the same.
    private static func describe(_ frame: WebSocketMessage) -> String {
        switch frame.kind {
        case .text:
            return "\(frame.sender.rawValue) text \(quote(Excerpt.of(String(decoding: frame.data, as: UTF8.self), limit: 80)))"
        case .binary:
            let hex = frame.data.prefix(16).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
            return "\(frame.sender.rawValue) binary \(hex)\(frame.data.count > 16 ? "…" : "") (\(frame.data.count) bytes)"
        default:
            return Excerpt.visible(frame.summary)
        }
    }

    private static func headerChanges(_ old: HTTPHeaders, _ new: HTTPHeaders, side: String, ignored: Set<String>) -> [String] {
        var names: [String] = []
        for field in old.fields + new.fields where !names.contains(where: { $0.caseInsensitiveEquals(field.name) }) {
            if !ignored.contains(field.name.lowercased()) { names.append(field.name) }
        }
        return names.compactMap { name in
            let before = old.values(for: name), after = new.values(for: name)
            guard before != after else { return nil }
            let render = { (values: [String]) in values.isEmpty ? "(absent)" : values.map(quote).joined(separator: ", ") }
            return "\(side).headers.\(name): \(render(before)) → \(render(after))"
        }
    }

    private static func bodyChanges(_ old: Data, _ new: Data, side: String) -> [String] {
        guard old != new else { return [] }
        if let before = try? JSONParser.parse(old), let after = try? JSONParser.parse(new) {
            guard !before.semanticallyEquals(after) else { return ["\(side).body: same JSON, different layout"] }
            let beforeLeaves = Dictionary(before.flattenedLeaves().map { ($0.pointer, $0.value) }) { first, _ in first }
            let afterLeaves = after.flattenedLeaves()
            var lines: [String] = []
            for (pointer, value) in afterLeaves {
                if let previous = beforeLeaves[pointer] {
                    if !previous.semanticallyEquals(value) {
                        lines.append("\(side).body \(pointer): \(JSONWriter.write(previous)) → \(JSONWriter.write(value))")
                    }
                } else {
                    lines.append("\(side).body \(pointer): (absent) → \(JSONWriter.write(value))")
                }
            }
            let afterPointers = Set(afterLeaves.map(\.pointer))
            for (pointer, value) in before.flattenedLeaves() where !afterPointers.contains(pointer) {
                lines.append("\(side).body \(pointer): \(JSONWriter.write(value)) → (absent)")
            }
            return lines.count > 20 ? Array(lines.prefix(20)) + ["\(side).body: … \(lines.count - 20) more JSON changes"] : lines
        }
        if let before = String(validating: old, as: UTF8.self), let after = String(validating: new, as: UTF8.self),
           before.count <= 80, after.count <= 80, !before.contains("\n"), !after.contains("\n") {
            return ["\(side).body: \(quote(before)) → \(quote(after))"]
        }
        return ["\(side).body: \(old.count) bytes → \(new.count) bytes (content differs)"]
    }

    private static func quote(_ text: String) -> String {
        JSONWriter.write(.string(text))
    }
}
