import Foundation

extension Redactor {
    /// `text` with each match of `pattern` for which `make` returns a replacement replaced, and
    /// how many were. `make` receives the match's capture groups (index 0 is the whole match, an
    /// unmatched group is ""); returning `nil` keeps that match as it is. A pattern that does not
    /// compile leaves the text unchanged. The one replacement loop the redaction rules for free
    /// text and for command lines share.
    ///
    /// ```swift
    /// Redactor.replacingMatches(in: "a=1 b=2", pattern: #"(\w)=(\d)"#) { $0[1] == "b" ? "b=<REDACTED>" : nil }
    /// // (text: "a=1 b=<REDACTED>", count: 1)
    /// ```
    package static func replacingMatches(in text: String, pattern: String, options: NSRegularExpression.Options = [],
                                        _ make: ([String]) -> String?) -> (text: String, count: Int) {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: options) else { return (text, 0) }
        let source = text as NSString
        var result = ""
        var last = 0
        var count = 0
        for match in regex.matches(in: text, range: NSRange(location: 0, length: source.length)) {
            let groups = (0..<match.numberOfRanges).map { index -> String in
                let range = match.range(at: index)
                return range.location == NSNotFound ? "" : source.substring(with: range)
            }
            guard let replacement = make(groups) else { continue }
            result += source.substring(with: NSRange(location: last, length: match.range.location - last)) + replacement
            last = match.range.location + match.range.length
            count += 1
        }
        guard last > 0 else { return (text, count) }
        return (result + source.substring(from: last), count)
    }
}
