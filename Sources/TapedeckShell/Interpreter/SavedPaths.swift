import Foundation

/// Rewrites the file path of a line whose command names a file (`record`, `replay`, `include`,
/// `openapi`: each ``CommandDefinition/filePath`` says) when `save` writes it into a script in
/// another folder.
///
/// At the prompt a relative path starts from the working directory; in a script it starts
/// from the script's folder. A line saved as typed (`replay Sessions/api.cassette.json`) into
/// `/tmp/smoke.tape` would then look for `/tmp/Sessions/…`. The saved line names the same
/// file relative to the script's folder, so the script works from wherever it is run, and
/// keeps working when the script and the cassettes move together.
enum SavedPaths {
    /// `line` with its path argument re-expressed relative to `scriptFolder`; unchanged when
    /// the line has no path argument, the path is absolute or `~`, or holds `{{…}}`.
    static func rewrite(_ line: String, from workingDirectory: URL, to scriptFolder: URL) -> String {
        guard !line.contains("\n"), let statement = try? Parser.parseScript(line, file: "<save>").first else { return line }
        guard let word = CommandRegistry.definition(for: statement.command)?.filePath(statement.command) else { return line }
        let path = word.text
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains("{{") else { return line }
        let target = workingDirectory.appendingPathComponent(path).standardizedFileURL
        let relative = relativePath(of: target, from: scriptFolder.standardizedFileURL)
        guard relative != path else { return line }
        // Find where the word ends in the line by scanning it again from its first column.
        let characters = Array(line)
        let start = word.location.column - 1
        guard start >= 0, start <= characters.count else { return line }
        var scanner = LineScanner(String(characters[start...]), start: word.location)
        guard (try? scanner.word()) != nil else { return line }
        let end = start + scanner.index
        return String(characters[..<start]) + quote(relative) + String(characters[end...])
    }

    /// The path of `target` as seen from the directory `folder` (`../cassettes/a.json`).
    static func relativePath(of target: URL, from folder: URL) -> String {
        let to = target.pathComponents, from = folder.pathComponents
        var common = 0
        while common < min(to.count, from.count), to[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        return (ups + to[common...]).joined(separator: "/")
    }

    /// One word of the command language: quoted when it holds a space, a quote, `#` or `\`.
    static func quote(_ path: String) -> String {
        guard path.contains(where: { $0 == " " || $0 == "'" || $0 == "\"" || $0 == "#" || $0 == "\\" || $0 == "\t" }) else {
            return path
        }
        if !path.contains("'") { return "'" + path + "'" }
        return "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
