/// The one rule for quoting offending text in an error message: at most ``limit`` characters,
/// then how much was left out, so a 1 MB item prints a line, not a megabyte of stderr.
///
/// ```swift
/// Excerpt.of(String(repeating: "x", count: 1_000_000))  // "xxx…x… (999,880 more characters)"
/// ```
package enum Excerpt {
    /// The most characters of offending text a message quotes.
    package static let limit = 120

    /// `text` if it is short, else its first `limit` characters and the count left out.
    package static func of(_ text: some StringProtocol, limit: Int = limit) -> String {
        var end = text.startIndex
        var kept = 0
        while kept < limit, end < text.endIndex {
            text.formIndex(after: &end)
            kept += 1
        }
        guard end < text.endIndex else { return String(text) }
        let more = text[end...].count
        return String(text[..<end]) + "… (\(more) more characters)"
    }

    /// ``of(_:limit:)``, with `redacting` applied first when the text is longer than `limit`: a
    /// credential the cut would shorten past recognition is replaced whole. Text that fits is
    /// returned as it is, for the caller to redact as it shows it.
    package static func cut(_ text: String, limit: Int, redacting: (String) -> String) -> String {
        text.count <= limit ? text : of(redacting(text), limit: limit)
    }

    /// `text` from outside (a file, a request, an argument) as a message quotes it: control
    /// and non-ASCII characters escaped (`\u{1B}`), then cut short, so nothing raw reaches a
    /// terminal.
    package static func visible(_ text: some StringProtocol) -> String {
        of(TextVisibility.escaped(String(text), nonASCII: true))
    }
}
