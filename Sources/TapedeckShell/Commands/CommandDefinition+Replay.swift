extension CommandDefinition {
    /// `replay PATH [--repeat]`: requests are answered from a cassette instead of the network.
    static let replay = CommandDefinition(
        name: "replay", group: .cassettes, place: 2,
        usage: "replay PATH [--repeat]",
        summary: "answer requests from a cassette instead of the network (--repeat serves the last match again once all were played)",
        example: "replay Sessions/tour.cassette.json --repeat",
        save: .keptExceptInSwift, completion: .files,
        filePath: { command in
            guard case .replay(let path, _) = command else { return nil }
            return path
        },
        grammar: { line throws(ParseError) in
            let path = try line.required("a cassette path")
            guard let flag = try line.word() else { return .replay(path, repeats: false) }
            guard flag.text == "--repeat" else { throw ParseError.unknown(flag.text, kind: "option", valid: ["--repeat"], at: flag.location) }
            return .replay(path, repeats: true)
        },
        action: { command in
            guard case .replay(let path, let repeats) = command else { return nil }
            return { shell, location throws(ShellError) in
                try shell.startReplaying(path, repeats: repeats, at: location)
                return true
            }
        })
}
