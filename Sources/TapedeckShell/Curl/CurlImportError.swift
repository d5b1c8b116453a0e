import Foundation

/// Why a pasted `curl` command cannot become a Tapedeck request.
public enum CurlImportError: Error, LocalizedError, Sendable, Equatable {
    /// The text does not start with `curl`.
    case notCurl(String)
    /// A quote was never closed.
    case unclosedQuote(String)
    /// An option Tapedeck does not translate.
    case unsupported(String, hint: String)
    /// An option needs a value and none followed.
    case missingValue(String)
    /// No URL was given.
    case missingURL
    /// More than one URL was given.
    case severalURLs(String, String)
    /// A header or the URL holds a control character (a line break would start another line
    /// of the script); `place` names it without quoting it.
    case controlCharacter(place: String, code: UInt8)

    public var errorDescription: String? {
        switch self {
        case .notCurl(let word):
            return "'\(word)' is not a curl command; paste the whole line starting with curl (Copy as cURL in the browser's network panel)"
        case .unclosedQuote(let quote):
            return "the curl command has an unclosed \(quote) quote; paste the whole command, line continuations included"
        case let .unsupported(option, hint):
            return "curl option \(option) is not supported by tapedeck import curl; \(hint)"
        case .missingValue(let option):
            return "curl option \(option) needs a value after it"
        case .missingURL:
            return "the curl command has no URL; add it, e.g. curl 'http://localhost:8080/get'"
        case let .severalURLs(first, second):
            return "the curl command has two URLs (\(first) and \(second)); send them as two commands"
        case let .controlCharacter(place, code):
            return "the curl command's \(place) holds the control character \(String(format: "0x%02X", code)), which no request line or header "
                + "may carry; remove it (or percent-encode it in the URL)"
        }
    }
}
