/// The few ANSI styles the renderer uses; `apply` is a no-op when colours are off.
public enum ANSIStyle: String, Sendable, CaseIterable {
    /// Bold.
    case bold = "1"
    /// Faint text for timing and notes.
    case dim = "2"
    /// Red: 5xx, errors.
    case red = "31"
    /// Green: 2xx, strings.
    case green = "32"
    /// Yellow: 4xx.
    case yellow = "33"
    /// Blue: object keys.
    case blue = "34"
    /// Magenta: true, false, null.
    case magenta = "35"
    /// Cyan: header names, numbers, 3xx.
    case cyan = "36"

    /// `text` wrapped in this style when `enabled`.
    public func apply(_ text: String, enabled: Bool) -> String {
        enabled && !text.isEmpty ? "\u{1B}[\(rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The style of a status code: green 2xx, cyan 3xx, yellow 4xx, red 5xx.
    public static func forStatus(_ status: Int) -> ANSIStyle {
        switch status {
        case 200..<300: .green
        case 300..<400: .cyan
        case 400..<500: .yellow
        default: .red
        }
    }
}
