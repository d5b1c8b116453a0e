import Foundation

/// Text from outside (a server's value, a cassette's) made safe for a terminal or a log:
/// control characters shown as escapes (``TerminalText`` in the shell, reports here).
package enum ControlText {
    /// `text` with every control character but tab (and, when `keepLineBreaks`, LF and CRLF)
    /// replaced by `\xNN` (`\u{NNNN}` above U+00FF).
    package static func visible(_ text: String, keepLineBreaks: Bool = true) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        while index != scalars.endIndex {
            let scalar = scalars[index]
            index = scalars.index(after: index)
            let keep: Bool
            switch scalar {
            case "\t": keep = true
            case "\n": keep = keepLineBreaks
            case "\r": keep = keepLineBreaks && index != scalars.endIndex && scalars[index] == "\n"
            default: keep = !needsEscape(scalar)
            }
            if keep {
                out.append(scalar)
            } else {
                let hex = String(scalar.value, radix: 16)
                let escaped = scalar.value <= 0xFF ? "\\x" + (hex.count < 2 ? "0" + hex : hex) : "\\u{\(hex)}"
                out.append(contentsOf: escaped.unicodeScalars)
            }
        }
        return String(out)
    }

    /// Whether a scalar is a C0 or C1 control, DEL, or a Unicode line/paragraph separator:
    /// the one rule of what a terminal or a log must not be given raw.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}
