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
        let rows: [[String]] = [header] + ChunkedWork.map(cassette.interactions.count) { index in
            let interaction = cassette.interactions[index]
            return [
                String(index),
                interaction.request.method.rawValue,
                shorten(interaction.request.url.absoluteString, to: urlWidth),
                interaction.failure.map { $0.kind == .aborted ? "aborted" : "failed" } ?? String(interaction.response.status),
                byteCount(interaction.response.body.count),
                String(decoding: RFC3339Date.format(interaction.recordedAt, fractionDigits: 6).utf8.prefix(19).map { $0 == UInt8(ascii: "T") ? UInt8(ascii: " ") : $0 },
                       as: UTF8.self),
                MaxAge.describe(now.timeIntervalSince(interaction.recordedAt)),
            ]
        }
        let widths = header.indices.map { column in rows.map { width(of: $0[column]) }.max() ?? 0 }
        let rightAligned: Set<Int> = [0, 3, 4, 6]
        return ChunkedWork.map(rows) { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - width(of: cell))
                return rightAligned.contains(column) ? pad + cell : (column == row.count - 1 ? cell : cell + pad)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// The columns a cell takes: its bytes when it is ASCII (every cell but an odd URL), else its characters.
    private static func width(of cell: String) -> Int {
        cell.utf8.allSatisfy { $0 < 0x80 } ? cell.utf8.count : cell.count
    }

    /// `512 B`, `1.5 KB`, `2.0 MB`.
    package static func byteCount(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return oneDecimal(Double(count) / 1024) + " KB" }
        return oneDecimal(Double(count) / 1024 / 1024) + " MB"
    }

    /// `value` rounded to one decimal (`1.5`), as `%.1f` prints it.
    private static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func shorten(_ text: String, to width: Int?) -> String {
        guard let width, text.count > width, width > 8 else { return text }
        let head = (width - 1) * 2 / 3
        return String(text.prefix(head)) + "…" + String(text.suffix(width - 1 - head))
    }
}
