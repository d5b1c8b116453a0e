import Foundation
import Tapedeck

/// A request item (`Name:value`, `name==value`, `name=value`, `name:=json`, `name@file` …)
/// that cannot be used, with the item as typed and the fix.
public enum RequestItemError: Error, LocalizedError, Sendable, Equatable {
    /// The item has none of the separators.
    case noSeparator(item: String)
    /// The part before the separator is empty.
    case emptyName(item: String)
    /// `--verify=no`: a misspelled or unknown option, which would otherwise be sent as a field.
    case looksLikeOption(item: String)
    /// `?page=3` after the URL: a query written as a field.
    case queryAsItem(item: String)
    /// A header name is not an RFC 9110 token.
    case invalidHeaderName(item: String, name: String)
    /// A header value contains CR, LF or NUL.
    case invalidHeaderValue(item: String)
    /// `Name;` carries text after the `;`.
    case textAfterEmptyHeader(item: String)
    /// A `:=` value is not JSON.
    case invalidJSON(item: String, column: Int, reason: String)
    /// A file named by `@`, `=@` or `:=@` cannot be read.
    case fileUnreadable(item: String, path: String, reason: String)
    /// A file read with `=@` is not UTF-8 text.
    case fileNotText(item: String, path: String)
    /// A file read with `:=@` does not hold JSON.
    case invalidJSONFile(item: String, path: String, line: Int, column: Int, reason: String)
    /// A nested JSON path such as `a[b` is malformed, or clashes with an earlier item.
    case invalidJSONPath(item: String, reason: String)
    /// A raw JSON field (`:=`) in a form, which can carry only text.
    case jsonFieldInForm(item: String)
    /// A raw body (`--raw`, `< FILE`) together with body items.
    case rawBodyWithItems(items: [String])

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .noSeparator(let item):
            return "'\(Excerpt.of(item))' is not a request item; write Name:value (header), name==value (query), "
                + "name=value (JSON string), name:=json (raw JSON) or name@file (upload); "
                + "escape a literal separator with a backslash (a\\=b=c)"
        case .queryAsItem(let item):
            let pairs = item.dropFirst().split(separator: "&").map { $0.replacingOccurrences(of: "=", with: "==") }
            return "'\(Excerpt.of(item))' is a query, not a body field; write it as \(pairs.joined(separator: " ")) "
                + "or put it in the URL (/path\(Excerpt.of(item)))"
        case .looksLikeOption(let item):
            let name = item.prefix { $0 != "=" && $0 != ":" && $0 != "@" }
            return "'\(Excerpt.of(item))' is not an option tapedeck knows, and an item's name cannot start with '-'; "
                + "check the spelling of \(Excerpt.of(name)) in --help (HTTPie refuses it too)"
        case .emptyName(let item) where item.hasPrefix("@"):
            // HTTPie's `@file` sends the file as the body: here that is a redirect.
            return "'\(Excerpt.of(item))' names no field; to send the file as the body, redirect it: < \(Excerpt.of(item.dropFirst())); "
                + "to upload it as a form part, name the part: file\(Excerpt.of(item))"
        case .emptyName(let item):
            return "'\(Excerpt.of(item))' has nothing before its separator; put a name first, e.g. 'name\(Excerpt.of(item))'"
        case .invalidHeaderName(let item, let name):
            return "'\(Excerpt.of(item))': '\(Excerpt.of(name))' is not a valid header name (letters, digits and !#$%&'*+-.^_`|~, no spaces); "
                + "for a JSON field write name=value, for a query item name==value"
        case .invalidHeaderValue(let item):
            // Quoted with the break shown (\r\n), not taken out: what was typed is what is named.
            return "'\(Excerpt.visible(item))': a header value cannot contain a line break or NUL; remove it"
        case .textAfterEmptyHeader(let item):
            return "'\(Excerpt.of(item))': 'Name;' sends an empty header and takes no value; write Name:value to send a value"
        case .invalidJSON(let item, let column, let reason):
            return "'\(Excerpt.of(item))': the value after ':=' is not JSON (column \(column): \(reason)); "
                + "quote strings (name:='\"text\"') or use name=text for a string field"
        case .fileUnreadable(let item, let path, let reason):
            return "'\(Excerpt.of(item))': cannot read file '\(Excerpt.of(path))': \(reason); check the path (relative paths start from the current directory)"
        case .fileNotText(let item, let path):
            return "'\(Excerpt.of(item))': file '\(Excerpt.of(path))' is not UTF-8 text; upload it as a file with name@\(path) instead"
        case .invalidJSONFile(let item, let path, let line, let column, let reason):
            return "'\(Excerpt.of(item))': file '\(Excerpt.of(path))' is not JSON (line \(line), column \(column): \(reason)); "
                + "fix the file or send it as a string with name=@\(path)"
        case .invalidJSONPath(let item, let reason):
            return "'\(Excerpt.of(item))': \(reason); escape brackets meant literally as \\[ and \\]"
        case .jsonFieldInForm(let item):
            return "'\(Excerpt.of(item))': a form carries only text, not raw JSON; use name=value, or drop --form/--multipart to send JSON"
        case .rawBodyWithItems(let items):
            return "a raw body cannot be combined with body items (\(Excerpt.of(items.joined(separator: " ")))); "
                + "send either --raw/< FILE or name=value items (with items, add --ignore-stdin when standard input is not the body)"
        }
    }
}
