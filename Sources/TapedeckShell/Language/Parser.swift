/// Turns script text or REPL input into ``Statement``s.
///
/// ```swift
/// let statements = try Parser.parseScript("base http://localhost:8080\nget /get\nexpect 200\n", file: "smoke.tape")
/// ```
public enum Parser {
    /// Parses a whole script whose first line is numbered `firstLine`; the first error stops
    /// parsing.
    public static func parseScript(_ source: String, file: String, firstLine: Int = 1) throws(ParseError) -> [Statement] {
        let lines = Self.lines(of: source)
        var statements: [Statement] = []
        var number = 0
        while number < lines.count {
            let line = lines[number]
            let start = SourceLocation(file: file, line: number + firstLine, column: 1)
            number += 1
            if CurlImport.isCurl(line) {
                var text = line
                while text.hasSuffix("\\") || text.hasSuffix("^") {
                    guard number < lines.count else { throw ParseError(.unfinishedCurl, at: start) }
                    text += "\n" + lines[number]
                    number += 1
                }
                statements += try curlStatements(text, at: start)
                continue
            }
            guard var parsed = try LineParser.parse(line, at: start) else { continue }
            var source = line.trimmedSpaces
            if let heredoc = parsed.heredoc {
                var body: [String] = []
                var closed = false
                while number < lines.count {
                    let bodyLine = lines[number]
                    number += 1
                    if bodyLine.trimmedSpaces == heredoc.text {
                        closed = true
                        break
                    }
                    body.append(bodyLine)
                }
                guard closed else { throw ParseError(.unclosedHeredoc(delimiter: heredoc.text), at: heredoc.location) }
                let text = body.joined(separator: "\n")
                let bodyStart = SourceLocation(file: file, line: heredoc.location.line + 1, column: 1)
                try Template.validate(text, at: bodyStart)
                parsed.fillHeredoc(Word(text, quoted: true, location: bodyStart))
                source += "\n" + body.joined(separator: "\n") + "\n" + heredoc.text
            }
            statements.append(Statement(command: parsed.command, location: parsed.location, source: source))
        }
        return statements
    }

    /// The lines of a script: `\n`, `\r\n` (one `Character` in Swift, so splitting on `"\n"`
    /// alone misses it) and a lone `\r` end a line; a UTF-8 byte-order mark is dropped.
    /// Split on the bytes: a line end is ASCII, and stepping through `Character`s (grapheme
    /// clusters) cost more than parsing the commands on the lines.
    static func lines(of source: String) -> [String] {
        let bytes = Array(source.utf8)
        var lines: [String] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                lines.append(String(decoding: bytes[start..<index], as: UTF8.self))
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                start = index + 1
            }
            index += 1
        }
        lines.append(String(decoding: bytes[start...], as: UTF8.self))
        return lines
    }

    /// Parses one line with no heredoc body; nil for a blank or comment line.
    public static func parseLine(_ line: String, file: String = "<repl>", line number: Int = 1) throws(ParseError) -> Command? {
        let start = SourceLocation(file: file, line: number, column: 1)
        guard let parsed = try LineParser.parse(line, at: start) else { return nil }
        if let heredoc = parsed.heredoc {
            throw ParseError(.unclosedHeredoc(delimiter: heredoc.text), at: heredoc.location)
        }
        return parsed.command
    }

    /// Every command word, for suggestions and completion (``CommandRegistry`` holds the commands).
    public static let commandNames = CommandRegistry.names

    /// The request methods with their own command word: the commands `help` lists under Requests.
    static let methodNames = CommandRegistry.all.filter { $0.helpEntry.group == .requests }.map(\.name)
}

/// The result of parsing one line: a command, and a heredoc still to be read.
struct ParsedLine {
    var command: Command
    var location: SourceLocation
    var heredoc: Word?

    mutating func fillHeredoc(_ body: Word) {
        if case .request(var request) = command {
            request.body = .heredoc(body)
            command = .request(request)
        }
        heredoc = nil
    }
}
