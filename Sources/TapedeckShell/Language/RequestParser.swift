import Foundation

/// Parses the arguments of `get/post/… [PATH] [ITEM…] [FLAGS] [< FILE | <<EOF]`.
enum RequestParser {
    /// The flags a request line accepts.
    static let flags = ["--form", "-f", "--multipart", "--raw", "--timeout", "--follow", "-F",
                        "--verbose", "-v", "--body", "-b", "--headers", "--print", "-p"]

    /// A `--timeout` value: a positive, finite number of seconds up to 2,000,000 (as the CLI).
    static func seconds(_ text: String) -> TimeInterval? {
        guard let value = Double(text), value.isFinite, value > 0, value <= 2_000_000 else { return nil }
        return value
    }

    static func parse(_ scanner: inout LineScanner, method: String) throws(ParseError) -> (command: RequestCommand, heredoc: Word?) {
        var request = RequestCommand(method: method)
        var heredoc: Word?
        var bodyAt: SourceLocation?
        func setBody(_ body: RequestCommand.BodySource?, at location: SourceLocation, marker: String) throws(ParseError) {
            if bodyAt != nil || heredoc != nil {
                throw ParseError(.unexpectedArgument(marker, command: method.lowercased()), at: location)
            }
            bodyAt = location
            request.body = body
        }
        while let word = try scanner.word() {
            let text = word.text
            if !word.quoted, text.hasPrefix("<<") {
                var delimiter = String(text.dropFirst(2))
                var location = word.location.advanced(by: 2)
                if delimiter.isEmpty {
                    guard let next = try scanner.word() else {
                        throw ParseError(.missingArgument(command: method.lowercased(), expected: "a heredoc delimiter after '<<' (e.g. <<EOF)"), at: scanner.location)
                    }
                    delimiter = next.text
                    location = next.location
                }
                try setBody(nil, at: word.location, marker: text)
                heredoc = Word(delimiter, location: location)
            } else if !word.quoted, text.hasPrefix("<") {
                var path = Word(String(text.dropFirst()), location: word.location.advanced(by: 1))
                if path.text.isEmpty {
                    guard let next = try scanner.word() else {
                        throw ParseError(.missingArgument(command: method.lowercased(), expected: "a file after '<'"), at: scanner.location)
                    }
                    path = next
                }
                try setBody(.file(path), at: word.location, marker: text)
            } else if !word.quoted, text.hasPrefix("-"), text.count > 1,
                      !text.contains("=") || text.hasPrefix("--raw=") || text.hasPrefix("--timeout=") || text.hasPrefix("--print=") {
                switch text {
                case "--verbose", "-v": request.print = .all
                case "--body", "-b": request.print = .responseBody
                case "--headers": request.print = .responseHeaders
                case "--print", "-p":
                    guard let value = try scanner.word() else {
                        throw ParseError(.missingArgument(command: method.lowercased(), expected: "the letters after --print (H request headers, B request body, h response headers, b response body)"), at: scanner.location)
                    }
                    request.print = try printParts(value)
                case "--form", "-f": request.form = true
                case "--multipart": request.multipart = true
                case "--follow", "-F": request.follow = true
                case "--raw":
                    guard let value = try scanner.word() else {
                        throw ParseError(.missingArgument(command: method.lowercased(), expected: "the body text after --raw"), at: scanner.location)
                    }
                    try setBody(.raw(value), at: word.location, marker: text)
                case "--timeout":
                    guard let value = try scanner.word() else {
                        throw ParseError(.missingArgument(command: method.lowercased(), expected: "the seconds after --timeout (e.g. --timeout 5)"), at: scanner.location)
                    }
                    request.timeout = try timeout(value)
                default:
                    if text.hasPrefix("--raw=") {
                        try setBody(.raw(Word(String(text.dropFirst(6)), location: word.location.advanced(by: 6))), at: word.location, marker: text)
                    } else if text.hasPrefix("--print=") {
                        request.print = try printParts(Word(String(text.dropFirst(8)), location: word.location.advanced(by: 8)))
                    } else if text.hasPrefix("--timeout=") {
                        request.timeout = try timeout(Word(String(text.dropFirst(10)), location: word.location.advanced(by: 10)))
                    } else {
                        throw ParseError.unknown(text, kind: "request option", valid: flags, at: word.location)
                    }
                }
            } else if request.target == nil, request.items.isEmpty, looksLikeTarget(word) {
                request.target = word
            } else {
                request.items.append(word)
            }
        }
        return (request, heredoc)
    }

    /// `--print` letters, as HTTPie's.
    private static func printParts(_ word: Word) throws(ParseError) -> PrintParts {
        do {
            return try PrintParts(letters: word.text)
        } catch {
            throw ParseError(.invalidValue(word.text, expected: "a set of --print letters: H request headers, B request body, h response headers, b response body (e.g. --print Hhb)"), at: word.location)
        }
    }

    /// A `--timeout` value, checked now unless it holds a `{{variable}}`.
    private static func timeout(_ word: Word) throws(ParseError) -> Word {
        guard word.text.containsBytes("{{") || seconds(word.text) != nil else {
            throw ParseError(.invalidValue(word.text, expected: "a number of seconds for --timeout (e.g. --timeout 5 or --timeout 0.5)"), at: word.location)
        }
        return word
    }

    /// A path or URL rather than an item: starts with `/`, `.`, `?` (a query on the base URL),
    /// a scheme or a template, is HTTPie's localhost shorthand (`:8000/get`), has a `/` or `?`
    /// before any of the item separators `:`, `=`, `@` (`users?page=2`, `v1/items?x=1`; an
    /// item's name holds neither), or has none of them.
    static func looksLikeTarget(_ word: Word) -> Bool {
        let text = word.text
        if URLShorthand.isLocalhost(text) { return true }
        if text.hasPrefix("/") || text.hasPrefix("?") || text.hasPrefix(".") || text.containsBytes("://") || text.hasPrefix("{{") { return true }
        guard let separator = text.firstIndex(where: { $0 == ":" || $0 == "=" || $0 == "@" }) else { return true }
        return text[..<separator].contains { $0 == "/" || $0 == "?" }
    }
}
