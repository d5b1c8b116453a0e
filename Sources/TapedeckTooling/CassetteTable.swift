import Foundation
import Tapedeck

/// Renders a cassette as a table for `tapedeck cassette show`: #, method, URL, status,
/// response body size, recorded-at time (UTC) and age.
///
/// ```swift
/// print(CassetteTable.render(cassette, urlWidth: 60))
/// ```
package enum CassetteTable {
    /// The table, with URLs longer than `urlWidth` shortened in the middle (nil: never) and ages at `now`.
    package static func render(_ cassette: Cassette, urlWidth: Int? = 60, now: Date = Date()) -> String {
        let header = ["#", "METHOD", "URL", "STATUS", "BODY", "RECORDED AT", "AGE"]
        var rows: [[String]] = [header]
        for (index, interaction) in cassette.interactions.enumerated() {
            rows.append([
                String(index),
                interaction.request.method.rawValue,
                shorten(interaction.request.url.absoluteString, to: urlWidth),
                interaction.failure.map { $0.kind == .aborted ? "aborted" : "failed" } ?? String(interaction.response.status),
                byteCount(interaction.response.body.count),
                String(RFC3339Date.format(interaction.recordedAt, fractionDigits: 6).prefix(19)).replacingOccurrences(of: "T", with: " "),
                MaxAge.describe(now.timeIntervalSince(interaction.recordedAt)),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 4, 6]
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return rightAligned.contains(column) ? pad + cell : (column == row.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// `512 B`, `1.5 KB`, `2.0 MB`.
    package static func byteCount(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1024 / 1024)
    }

    private static func shorten(_ text: String, to width: Int?) -> String {
        guard let width, text.count > width, width > 8 else { return text }
        let head = (width - 1) * 2 / 3
        return String(text.prefix(head)) + "…" + String(text.suffix(width - 1 - head))
    }
}
