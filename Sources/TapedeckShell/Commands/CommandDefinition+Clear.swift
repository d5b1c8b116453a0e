extension CommandDefinition {
    /// `clear`: clears a terminal's screen and scrollback; nothing when output is not a terminal.
    static let clear = CommandDefinition(
        name: "clear", group: .prompt, place: 2,
        usage: "clear",
        summary: "clear the terminal screen (Ctrl-L works too); does nothing when output is not a terminal",
        example: "clear",
        save: .skipped,
        grammar: { _ throws(ParseError) in .clear },
        action: { command in
            guard case .clear = command else { return nil }
            return { shell, _ throws(ShellError) in
                // Home, erase the screen and the scrollback, as clear(1) does; only on a terminal.
                if shell.options.isTerminal || shell.options.colors { shell.output.control("\u{1B}[H\u{1B}[2J\u{1B}[3J") }
                return true
            }
        })
}
