/// Help text written wrapped in the source, given to ArgumentParser unwrapped so that it wraps
/// once, at the terminal's width, with no ragged lines.
enum HelpText {
    /// `text` with each paragraph's lines joined into one. Blank lines, indented lines (lists,
    /// examples) and upper-case headings (`EXIT CODES`) stay as they are.
    static func prose(_ text: String) -> String {
        var lines: [String] = []
        var joinable = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let standalone = line.isEmpty || line.first?.isWhitespace == true || isHeading(line)
            if joinable, !standalone, let last = lines.popLast() {
                lines.append(last + (last.hasSuffix("/") ? "" : " ") + line)
            } else {
                lines.append(line)
            }
            joinable = !standalone
        }
        return lines.joined(separator: "\n")
    }

    private static func isHeading(_ line: String) -> Bool {
        line.contains { $0.isLetter } && line == line.uppercased()
    }
}
