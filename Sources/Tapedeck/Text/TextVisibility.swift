import Foundation

/// Text from outside (a body, a header name) quoted on one line of a report: control
/// characters (``ControlText``'s rule), quotes and (when asked) non-ASCII characters written
/// as Swift escapes, so what is shown can be read and is never obeyed by a terminal or a log parser.
enum TextVisibility {
    /// `text` with `\r`, `\n`, `\t`, `\"` and other control characters escaped; non-ASCII too
    /// when `nonASCII` (`X-é` → `X-\u{e9}`).
    static func escaped(_ text: String, nonASCII: Bool = false) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r": out += "\\r"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\"": out += "\\\""
            default:
                if ControlText.needsEscape(scalar) || (nonASCII && scalar.value > 0x7E) {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
