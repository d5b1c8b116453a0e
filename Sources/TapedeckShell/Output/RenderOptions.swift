import Foundation

/// Which parts of an exchange to print, like HTTPie's `--print HhBb`.
public struct PrintParts: OptionSet, Sendable, Hashable {
    /// The raw bits.
    public let rawValue: Int
    /// Creates parts from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `H`: the request line and headers.
    public static let requestHeaders = PrintParts(rawValue: 1 << 0)
    /// `B`: the request body.
    public static let requestBody = PrintParts(rawValue: 1 << 1)
    /// `h`: the status line and response headers.
    public static let responseHeaders = PrintParts(rawValue: 1 << 2)
    /// `b`: the response body.
    public static let responseBody = PrintParts(rawValue: 1 << 3)

    /// `hb`: what a terminal shows by default.
    public static let response: PrintParts = [.responseHeaders, .responseBody]
    /// `HBhb`: `--verbose`.
    public static let all: PrintParts = [.requestHeaders, .requestBody, .responseHeaders, .responseBody]

    /// Parses HTTPie's letters (`H`, `B`, `h`, `b` in any order, at least one).
    public init(letters: String) throws(RenderOptionError) {
        var parts: PrintParts = []
        for letter in letters {
            switch letter {
            case "H": parts.insert(.requestHeaders)
            case "B": parts.insert(.requestBody)
            case "h": parts.insert(.responseHeaders)
            case "b": parts.insert(.responseBody)
            default: throw .invalidPrintLetters(letters)
            }
        }
        guard !parts.isEmpty else { throw .invalidPrintLetters(letters) }
        self = parts
    }
}

/// A bad rendering option typed by the user.
public enum RenderOptionError: Error, LocalizedError, Sendable, Equatable {
    /// `--print` got letters other than H, B, h, b.
    case invalidPrintLetters(String)
    /// `--pretty` got an unknown style.
    case invalidPretty(String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .invalidPrintLetters(let letters):
            return "--print '\(letters)' is not valid; use the letters H (request headers), B (request body), h (response headers), b (response body), e.g. --print hb"
        case .invalidPretty(let style):
            return "--pretty '\(style)' is not valid; use all, colors, format or none"
        }
    }
}

/// How responses and requests are rendered.
public struct RenderOptions: Sendable, Hashable {
    /// Whether ANSI colours are used.
    public var colors: Bool
    /// Whether JSON bodies are re-indented (key order kept as received).
    public var format: Bool
    /// Which parts are printed.
    public var parts: PrintParts
    /// Whether the output is a terminal: binary bodies are then summarised, never dumped.
    public var terminal: Bool
    /// Whether the status line carries `(12 ms, 429 B)`.
    public var showTiming: Bool

    /// Creates options; the defaults are a plain, formatted, headers-and-body terminal view.
    public init(colors: Bool = false, format: Bool = true, parts: PrintParts = .response,
                terminal: Bool = true, showTiming: Bool = true) {
        self.colors = colors
        self.format = format
        self.parts = parts
        self.terminal = terminal
        self.showTiming = showTiming
    }

    /// The defaults for an output stream: on a terminal, colours (unless `NO_COLOR` is set or
    /// `TERM=dumb`), formatting, headers and body; piped, HTTPie's habit of the raw body only.
    public static func automatic(isTerminal: Bool, environment: [String: String]) -> RenderOptions {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return RenderOptions(colors: isTerminal && !noColor && !dumb, format: isTerminal,
                             parts: isTerminal ? .response : .responseBody, terminal: isTerminal)
    }

    /// Applies HTTPie's `--pretty all|colors|format|none`.
    public mutating func applyPretty(_ style: String) throws(RenderOptionError) {
        switch style {
        case "all": colors = true; format = true
        case "colors": colors = true; format = false
        case "format": colors = false; format = true
        case "none": colors = false; format = false
        default: throw .invalidPretty(style)
        }
    }
}
