import Foundation
import TapedeckOpenAPI

/// Tab completion for the REPL, kept apart from libedit so it can be tested alone: command
/// names, then what the command's ``CommandDefinition/completion`` asks for: header names
/// (common ones and those used this session), `{{variables}}`, file paths after `@` and `<`,
/// URL paths seen in `cd`, requests and responses, and, with an OpenAPI document loaded, its
/// paths, parameters (`name==`, `Name:`) and body members (`name=`, `name:=`).
public struct Completer: Sendable {
    /// Header names used this session.
    public var sessionHeaders: [String] = []
    /// Variable names.
    public var variables: [String] = []
    /// URL paths seen this session.
    public var paths: [String] = []
    /// Where relative file paths start.
    public var directory: URL
    /// The session's current path, where relative URL paths start.
    public var currentPath: String
    /// The OpenAPI document loaded at the prompt, if any.
    package var openAPI: OpenAPIGuide?

    /// Headers offered before any were used.
    public static let commonHeaders = [
        "Accept", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control", "Connection",
        "Content-Type", "Cookie", "If-Match", "If-Modified-Since", "If-None-Match", "Origin", "Prefer",
        "Referer", "User-Agent", "X-API-Key", "X-Request-ID",
    ]

    /// Creates a completer over a session snapshot.
    package init(sessionHeaders: [String] = [], variables: [String] = [], paths: [String] = [],
                directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                currentPath: String = "/", openAPI: OpenAPIGuide? = nil) {
        self.sessionHeaders = sessionHeaders
        self.variables = variables
        self.paths = paths
        self.directory = directory
        self.currentPath = currentPath
        self.openAPI = openAPI
    }

    /// A completion answer: full replacements for the word, and whether a space follows a
    /// single match.
    public struct Result: Equatable, Sendable {
        /// Replacements for the word being completed, sorted.
        public var candidates: [String]
        /// Whether a space goes after a unique match.
        public var appendSpace: Bool
    }

    /// Completions for `word`, which is preceded on the line by `before`. A word whose spaces
    /// are escaped (`@my\\ fi`), which libedit splits at the space, is completed whole, and
    /// each candidate is what follows the part already on the line.
    public func complete(word: String, before: String) -> Result {
        if let start = Self.escapedWordStart(before) {
            let typed = String(before[start...])
            let whole = complete(word: typed + word, before: String(before[..<start]))
            return Result(candidates: whole.candidates.filter { $0.hasPrefix(typed) }.map { String($0.dropFirst(typed.count)) },
                          appendSpace: whole.appendSpace)
        }
        return completeWord(word, before: before)
    }

    /// Where the word that `before` ends inside begins, when it ends in an escaped space
    /// (`\\ `): the word runs back to the last space that is not escaped, or a word break
    /// (`@`, `<`, `=`, `{`, a quote).
    private static func escapedWordStart(_ before: String) -> String.Index? {
        guard before.hasSuffix("\\ ") else { return nil }
        var index = before.endIndex
        while index > before.startIndex {
            let previous = before.index(before: index)
            let character = before[previous]
            if character == " ", previous > before.startIndex, before[before.index(before: previous)] == "\\" {
                index = before.index(before: previous)
                continue
            }
            if character.isWhitespace || "\"'<>={@".contains(character) { break }
            index = previous
        }
        return index
    }

    private func completeWord(_ word: String, before: String) -> Result {
        if before.hasSuffix("{{") {
            let names = variables + ["env."]
            return Result(candidates: filter(names, word).map { $0 == "env." ? $0 : $0 + "}}" }, appendSpace: false)
        }
        if before.hasSuffix("@") || before.hasSuffix("<") { return Result(candidates: files(word), appendSpace: false) }
        let words = before.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let command = words.first?.lowercased() else {
            return Result(candidates: filter(CommandRegistry.names, word), appendSpace: true)
        }
        if words.last == "<" { return Result(candidates: files(word), appendSpace: false) }
        switch CommandRegistry.definition(named: command)?.completion ?? .nothing {
        case .commandNames: return Result(candidates: filter(CommandRegistry.names, word), appendSpace: false)
        case .keywords(let keywords): return Result(candidates: filter(keywords, word), appendSpace: false)
        case .urlPaths: return Result(candidates: filter(typedPaths + documentedPaths(word), word), appendSpace: false)
        case .files: return Result(candidates: files(word), appendSpace: false)
        case .headerOrUnset where words.count == 1:
            return Result(candidates: filter(headerNames + ["unset"], word).map { $0 == "unset" ? $0 : $0 + ":" }, appendSpace: false)
        case .responseQuery:
            if words.last == "header" { return Result(candidates: filter(headerNames, word), appendSpace: true) }
            let keywords = ResponseQuery.keywords + (words.count >= 2 ? Predicate.keywords : [])
            return Result(candidates: filter(keywords, word), appendSpace: true)
        case .request:
            if word.hasPrefix("/") || (words.count == 1 && word.isEmpty) {
                let candidates = filter(typedPaths + documentedPaths(word), word)
                return Result(candidates: candidates, appendSpace: !(candidates.count == 1 && candidates[0].hasSuffix("/")))
            }
            if word.hasPrefix("-") {
                return Result(candidates: filter(RequestParser.flags, word), appendSpace: true)
            }
            var candidates = documentedItems(method: command, target: Self.requestTarget(before))
            if words.count == 1 { candidates += documentedPaths(word) }
            candidates += headerNames.map { $0 + ":" }
            return Result(candidates: filter(candidates, word), appendSpace: false)
        case .headerOrUnset, .nothing:
            return Result(candidates: [], appendSpace: false)
        }
    }

    /// The paths visited, as a line can hold them: a space, a tab or a quote in one (a path
    /// a variable filled in) is percent-encoded, so the completed word is one word.
    private var typedPaths: [String] {
        paths.map { path in
            guard path.contains(where: { $0 == " " || $0 == "\t" || $0 == "\"" || $0 == "'" }) else { return path }
            return path.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "\t", with: "%09")
                .replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "'", with: "%27")
        }
    }

    /// The loaded document's segments under the folder `word` names (from the current path
    /// unless it starts with `/`): `name` for one with methods, `name/` for one with more below.
    private func documentedPaths(_ word: String) -> [String] {
        guard let openAPI else { return [] }
        let typedFolder = word.lastIndex(of: "/").map { String(word[...$0]) } ?? ""
        var folder = SessionState()
        folder.path = currentPath
        folder.changePath(typedFolder.isEmpty ? "." : typedFolder)
        return openAPI.children(of: folder.path).flatMap { entry in
            (entry.methods.isEmpty ? [] : [typedFolder + entry.name]) + (entry.hasChildren ? [typedFolder + entry.name + "/"] : [])
        }
    }

    /// The path or URL typed so far on a request line (not an item or a flag), with a leading
    /// `{{variable}}` (a base URL held in a variable) dropped; nil when there is none.
    private static func requestTarget(_ before: String) -> String? {
        guard case .request(let request)? = try? Parser.parseLine(before), var target = request.target?.text else { return nil }
        if target.hasPrefix("{{"), let close = target.range(of: "}}") { target = String(target[close.upperBound...]) }
        return target.isEmpty ? nil : target
    }

    /// The loaded document's inputs for `method` at `target` (or the current path), as HTTPie
    /// items: `name==` for query parameters, `Name:` for headers, `name=` or `name:=` for
    /// members of a JSON body.
    private func documentedItems(method: String, target: String?) -> [String] {
        guard let openAPI else { return [] }
        var session = SessionState()
        session.path = currentPath
        var path = session.resolve(target: target)
        if path.contains("://") { path = URLComponents(string: path)?.path ?? path }
        if let query = path.firstIndex(of: "?") { path = String(path[..<query]) }
        return (openAPI.inputs(method: method, path: path) ?? []).compactMap { input in
            switch input.place {
            case .query: input.name + "=="
            case .header: input.name + ":"
            case .body: input.name + (input.isString ? "=" : ":=")
            case .path, .cookie: nil
            }
        }
    }

    private var headerNames: [String] {
        var seen = Set<String>()
        return (sessionHeaders + Self.commonHeaders).filter { seen.insert($0.lowercased()).inserted }
    }

    private func filter(_ candidates: [String], _ word: String) -> [String] {
        let lowered = word.lowercased()
        return Array(Set(candidates.filter { $0.lowercased().hasPrefix(lowered) })).sorted()
    }

    /// Entries of the folder named by `word`'s directory part that start with its last part;
    /// folders end with `/`. `word` is read, and the candidates written, with a backslash
    /// before each space, quote and backslash, as the line's words are.
    private func files(_ typed: String) -> [String] {
        let word = Self.unescaped(typed)
        let expanded = (word as NSString).expandingTildeInPath
        let slash = expanded.lastIndex(of: "/")
        let folderPart = slash.map { String(expanded[...$0]) } ?? ""
        let prefix = slash.map { String(expanded[expanded.index(after: $0)...]) } ?? expanded
        let folder = folderPart.hasPrefix("/") ? URL(fileURLWithPath: folderPart)
            : directory.appendingPathComponent(folderPart)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        let typedFolder = word.lastIndex(of: "/").map { String(word[...$0]) } ?? ""
        return names.filter { $0.hasPrefix(prefix) && (prefix.hasPrefix(".") || !$0.hasPrefix(".")) }.sorted().map { name in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
            return Self.escaped(typedFolder + name) + (isDirectory.boolValue ? "/" : "")
        }
    }

    /// `text` with a backslash before each space, quote and backslash.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isWhitespace || character == "\"" || character == "'" || character == "\\" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// `text` with each backslash escape replaced by the character it escapes.
    static func unescaped(_ text: String) -> String {
        var result = ""
        var escaping = false
        for character in text {
            if character == "\\", !escaping {
                escaping = true
                continue
            }
            escaping = false
            result.append(character)
        }
        return result
    }
}
