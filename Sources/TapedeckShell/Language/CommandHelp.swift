/// `help` and `help CMD`: every command's syntax, one-line meaning and example, from its
/// ``CommandDefinition``.
public enum CommandHelp {
    /// The groups `help` lists commands in, in order.
    public enum Group: CaseIterable, Sendable {
        /// `base`, `cd`, `header`, …
        case destination
        /// `get`, `post`, …
        case requests
        /// `expect`, `capture`, `set`, …
        case checks
        /// `show`, `history`, `save`, `include`
        case inspection
        /// `record`, `replay`, `live`, `tape`
        case cassettes
        /// `help`, `clear`, `exit`
        case prompt

        /// The group's heading in `help`.
        public var title: String {
            switch self {
            case .destination: "Where requests go:"
            case .requests: "Requests:"
            case .checks: "Checks and variables:"
            case .inspection: "Inspect and save:"
            case .cassettes: "Cassettes:"
            case .prompt: "The prompt:"
            }
        }
    }

    /// One command's help.
    public struct Entry: Sendable {
        /// The command word.
        public var name: String
        /// Its syntax.
        public var usage: String
        /// What it does.
        public var summary: String
        /// A line to copy.
        public var example: String
        /// The group `help` lists it in.
        public var group: Group
        /// Its place in that group, from 1.
        public var place: Int

        /// The summary's first clause, for the overview.
        public var brief: String {
            let firstLine = summary.split(separator: "\n").first.map(String.init) ?? summary
            let clause = firstLine.components(separatedBy: "; ").first ?? firstLine
            return clause.components(separatedBy: " (").first ?? clause
        }
    }

    /// Every command's help, in registry order.
    public static var entries: [Entry] { CommandRegistry.all.map(\.helpEntry) }

    /// The syntax of `command`, or the command itself when it is not a command's name.
    public static func usage(of command: String) -> String {
        CommandRegistry.all.first { $0.name == command }?.helpEntry.usage ?? command
    }

    /// `help` output: every command with what it does, in groups.
    public static func overview() -> String {
        let entries = self.entries
        let width = entries.map(\.name.count).max() ?? 8
        var lines = ["Commands (help COMMAND for its syntax and an example):"]
        for group in Group.allCases {
            lines.append(group.title)
            for entry in listed(in: group, from: entries) {
                lines.append("  " + entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.brief)
            }
        }
        lines.append("Variables: {{name}} anywhere; {{env.NAME}} reads the environment. '#' starts a comment.")
        return lines.joined(separator: "\n")
    }

    /// The overview's groups, in order: each title with its command names in their places.
    static var groups: [(String, [String])] {
        let entries = self.entries
        return Group.allCases.map { group in (group.title, listed(in: group, from: entries).map(\.name)) }
    }

    /// The entries of `group`, in their places.
    private static func listed(in group: Group, from entries: [Entry]) -> [Entry] {
        entries.filter { $0.group == group }.sorted { $0.place < $1.place }
    }

    /// `help CMD` output (an alias, like `quit`, shows its command's help), or nil when
    /// `command` is not a command.
    public static func detail(_ command: String) -> String? {
        guard let entry = CommandRegistry.definition(named: command)?.helpEntry else { return nil }
        return "usage:   \(entry.usage)\n\(entry.summary)\nexample: \(entry.example)"
    }
}
