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
        var text: [UInt8] = []
        write(cassette, urlWidth: urlWidth, now: now) { text += $0 }
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        return String(decoding: text, as: UTF8.self)
    }

    /// The table's lines, each ending in a newline, handed to `write` in blocks and in order: a
    /// table of 100,000 rows is never held whole as text (once as lines, joined, and copied for
    /// the terminal, it was a fifth of `cassette show`'s peak memory).
    /// URLs are shown as redaction would write them (a cassette from elsewhere, a browser's HAR,
    /// may hold credentials in them).
    package static func write(_ cassette: Cassette, urlWidth: Int? = 60, now: Date = Date(), to write: ([UInt8]) -> Void) {
        let urls = Redactor.standard.listedURLs(of: cassette)
        let header = ["#", "METHOD", "URL", "STATUS", "BODY", "RECORDED AT", "AGE"].map(Cell.init(ascii:))
        // Two passes: the columns' widths first, then each block's cells again, written. Rows of
        // cells kept for the whole table were a sixth of `cassette show`'s peak memory.
        let widths = ChunkedWork.map(cassette.interactions.count) { index in
            Self.widths(of: cassette.interactions[index], url: urls[index], at: index, urlWidth: urlWidth, now: now)
        }.reduce(Self.widths(of: header)) { $0.replacing(with: $1, where: $1 .> $0) }
        let rightAligned: [Bool] = header.indices.map { [0, 3, 4, 6].contains($0) }
        let lineCapacity = Int(widths.wrappedSum()) + 2 * header.count + 1
        @Sendable func line(_ row: [Cell]) -> [UInt8] {
            var line: [UInt8] = []
            line.reserveCapacity(lineCapacity)
            for (column, cell) in row.enumerated() {
                if column > 0 { line.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: " ")]) }
                let pad = Int(widths[column]) - cell.width
                if rightAligned[column] { line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad)) }
                line.append(contentsOf: cell.text.utf8)
                if !rightAligned[column], column < row.count - 1 { line.append(contentsOf: repeatElement(UInt8(ascii: " "), count: pad)) }
            }
            line.append(UInt8(ascii: "\n"))
            return line
        }
        write(line(header))
        var start = 0
        while start < cassette.interactions.count {
            let end = min(start + linesPerBlock, cassette.interactions.count)
            // Each line is written as bytes on its own core, then the block is joined once.
            let lines = ChunkedWork.map(end - start) { [start] offset in
                line(cells(of: cassette.interactions[start + offset], url: urls[start + offset], at: start + offset, urlWidth: urlWidth, now: now))
            }
            var block: [UInt8] = []
            block.reserveCapacity(lines.reduce(0) { $0 + $1.count })
            for line in lines { block.append(contentsOf: line) }
            write(block)
            start = end
        }
    }

    /// One interaction's row.
    private static func cells(of interaction: Interaction, url: String, at index: Int, urlWidth: Int?, now: Date) -> [Cell] {
        [
            Cell(ascii: String(index)),
            Cell(ascii: interaction.request.method.rawValue),
            Cell(shorten(url, to: urlWidth)),
            Cell(ascii: status(of: interaction)),
            Cell(ascii: byteCount(interaction.response.body.count)),
            Cell(ascii: String(decoding: RFC3339Date.format(interaction.recordedAt, fractionDigits: 6).utf8.prefix(dateWidth)
                .map { $0 == UInt8(ascii: "T") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)),
            Cell(ascii: MaxAge.describe(now.timeIntervalSince(interaction.recordedAt))),
        ]
    }

    /// The widths of ``cells(of:url:at:urlWidth:now:)``, working out only what varies in width
    /// (the first pass over a table of 100,000 rows).
    private static func widths(of interaction: Interaction, url: String, at index: Int, urlWidth: Int?, now: Date) -> SIMD8<Int32> {
        var digits = 1, rest = index
        while rest >= 10 { digits += 1; rest /= 10 }
        return SIMD8(Int32(digits), Int32(interaction.request.method.rawValue.utf8.count),
                     Int32(Cell(shorten(url, to: urlWidth)).width), Int32(status(of: interaction).utf8.count),
                     Int32(byteCount(interaction.response.body.count).utf8.count), Int32(dateWidth),
                     Int32(MaxAge.describe(now.timeIntervalSince(interaction.recordedAt)).utf8.count), 0)
    }

    /// The widths of a row's seven cells (the eighth lane is unused).
    private static func widths(of row: [Cell]) -> SIMD8<Int32> {
        var widths = SIMD8<Int32>()
        for (column, cell) in row.enumerated() { widths[column] = Int32(cell.width) }
        return widths
    }

    /// `2026-01-02 10:00:00`.
    private static let dateWidth = 19

    private static func status(of interaction: Interaction) -> String {
        interaction.failure.map { $0.kind == .aborted ? "aborted" : "failed" } ?? String(interaction.response.status)
    }

    /// Lines handed to the writer at once: about 1 MB of text.
    private static let linesPerBlock = 8_192

    /// A cell's text and the columns it takes: its bytes when it is ASCII (every cell but an
    /// odd URL), else its characters.
    private struct Cell {
        let text: String
        let width: Int

        init(_ text: String) {
            self.text = text
            width = text.allBytes(satisfy: { $0 < 0x80 }) ? text.utf8.count : text.count
        }

        /// A cell whose text is ASCII by construction (a number, a method, a date).
        init(ascii text: String) {
            self.text = text
            width = text.utf8.count
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
