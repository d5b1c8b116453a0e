extension CommandDefinition {
    /// `record PATH [--mode M]`: requests go live and are recorded into a cassette.
    static let record = CommandDefinition(
        name: "record", group: .cassettes, place: 1,
        usage: "record PATH [--mode once|new|all|none]",
        summary: "send requests live and record them into a cassette",
        example: "record Sessions/tour.cassette.json --mode all",
        save: .keptExceptInSwift, completion: .files,
        filePath: { command in
            guard case .record(let path, _) = command else { return nil }
            return path
        },
        grammar: { line throws(ParseError) in try parseRecord(&line) },
        action: { command in
            guard case .record(let path, let mode) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.startRecording(path, mode: mode, at: location)
                return true
            }
        })

    /// The record modes `--mode` takes.
    private static let modes = ["once", "new", "all", "none"]

    /// `record PATH`, `record PATH --mode M` or `record PATH --mode=M`; a mode with a
    /// `{{variable}}` is checked when it runs.
    private static func parseRecord(_ line: inout LineParser) throws(ParseError) -> Command {
        let path = try line.required("a cassette path")
        var mode: Word?
        if let flag = try line.word() {
            if flag.text == "--mode" {
                mode = try line.required("a record mode (once, new, all, none)")
            } else if flag.text.hasPrefix("--mode=") {
                mode = Word(String(flag.text.dropFirst(7)), location: flag.location.advanced(by: 7))
            } else {
                throw ParseError.unknown(flag.text, kind: "option", valid: ["--mode"], at: flag.location)
            }
        }
        if let mode, !modes.contains(mode.text), !mode.text.contains("{{") {
            throw ParseError.unknown(mode.text, kind: "record mode", valid: modes, at: mode.location)
        }
        return .record(path, mode: mode)
    }
}
