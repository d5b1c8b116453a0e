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
        let rows: [[Cell]] = [header.map(Cell.init)] + ChunkedWork.map(cassette.interactions.count) { index in
            let interaction = cassette.interactions[index]
            return [
                String(index),
                interaction.request.method.rawValue,
                shorten(interaction.request.urlText, to: urlWidth),
                interaction.failure.map { $0.kind == .aborted ? "aborted" : "failed" } ?? String(interaction.response.status),
                byteCount(interaction.response.body.count),
                String(decoding: RFC3339Date.format(interaction.recordedAt, fractionDigits: 6).utf8.prefix(19).map { $0 == UInt8(ascii: "T") ? UInt8(ascii: " ") : $0 },
                       as: UTF8.self),
                MaxAge.describe(now.timeIntervalSince(interaction.recordedAt)),
            ].map(Cell.init)
        }
        let widths = header.indices.map { column in rows.map { $0[column].width }.max() ?? 0 }
        let rightAligned: [Bool] = header.indices.map { [0, 3, 4, 6].contains($0) }
        // Each line is written as bytes, then the lines are joined once.
        let lines = ChunkedWork.map(rows) { row in
            var line: [UInt8] = []
            line.reserveCapacity(widths.reduce(2 * widths.count, +))
            for (column, cell) in row.enumerated() {
                if column > 0 { line.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
                let pad = widths[column] - cell.width
                if rightAligned[column] { line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad)) }
                line.append(contentsOf: cell.text.utf8)
                if !rightAligned[column], column < row.count - 1 { line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad)) }
            }
            return line
        }
        var text: [UInt8] = []
        text.reserveCapacity(lines.reduce(lines.count) { $0 + $1.count })
        for (index, line) in lines.enumerated() {
            if index > 0 { text.append(UInt8(ascii: "\n")) }
            text.append(contentsOf: line)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A cell's text and the columns it takes: its bytes when it is ASCII (every cell but an
    /// odd URL), else its characters.
    private struct Cell {
        let text: String
        let width: Int

        init(_ text: String) {
            self.text = text
            width = text.allBytes(satisfy: { $0 < 0x80 }) ? text.utf8.count : text.count
        }
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
        // No more bytes than columns means no more characters than columns: the count is skipped.
        guard let width, text.utf8.count > width, text.count > width, width > 8 else { return text }
        let head = (width - 1) * 2 / 3
        return String(text.prefix(head)) + "…" + String(text.suffix(width - 1 - head))
    }
}
