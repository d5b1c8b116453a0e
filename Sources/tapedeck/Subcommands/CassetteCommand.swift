import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling

extension TapedeckCommand {
    /// `tapedeck cassette show|lint|prune|diff|verify|check`: inspects and maintains cassettes in any format.
    struct CassetteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cassette",
            abstract: "Shows, lints, prunes, diffs, verifies and checks cassettes (Tapedeck JSON, vcrpy YAML or HAR).",
            subcommands: [Show.self, View.self, Lint.self, Prune.self, Diff.self, Verify.self, Check.self]
        )
    }
}

extension TapedeckCommand.CassetteCommand {
    /// `tapedeck cassette show C`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Prints a table of the interactions: #, method, URL, status, body size, recorded at (UTC).")

        @Argument(help: ArgumentHelp("The cassette.", valueName: "cassette"))
        var cassette: String

        @Flag(name: .long, help: "Print URLs in full instead of shortening long ones.")
        var wide = false

        func run() async throws {
            let url = URL(fileURLWithPath: cassette)
            let loaded = try CassetteFile.load(url)
            let format = CassetteFile.formatName(url)
            let count = loaded.interactions.count
            Console.write("\(cassette) · \(format) · \(count) interaction\(count == 1 ? "" : "s")\n")
            if count > 0 { CassetteTable.write(loaded, urlWidth: wide ? nil : 60) { Console.write($0) } }
            UntilExit.keep(loaded)
        }
    }

    /// `tapedeck cassette lint C`.
    struct Lint: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lint",
            abstract: "Finds secrets, interactions replay can never reach, bodies that do not decode and (with --max-age) expired interactions.",
            discussion: HelpText.prose("""
                EXIT CODES
                  0  no findings
                  3  the cassette could not be read
                  4  findings (one per line on stdout)
                """))

        @Argument(help: ArgumentHelp("The cassettes.", valueName: "cassette"))
        var cassettes: [String]

        @Option(name: .customLong("max-age"), help: ArgumentHelp("Report interactions recorded longer ago than this (30d, 12h, 2w; default $TAPEDECK_MAX_AGE).", valueName: "age"))
        var maxAge: String?

        func run() async throws {
            var total = 0
            let limit = try ExpiryOptions.maxAge(maxAge)
            for path in cassettes {
                let cassette = try CassetteFile.load(URL(fileURLWithPath: path))
                let findings = CassetteLint.findings(in: cassette)
                total += findings.count
                for finding in findings { Console.write("\(path): \(finding)\n") }
                if let limit {
                    let expired = CassetteExpiry(cassette, maxAge: limit).expired
                    total += expired.count
                    for entry in expired {
                        Console.write("\(path): interactions[\(entry.index)].recordedAt: [expired] \(entry.summary) was recorded "
                            + "\(MaxAge.describe(entry.age)) ago, more than \(limit); check it with tapedeck cassette verify --update \(path) or re-record it\n")
                    }
                }
                // A date ahead of the clock has no age: --max-age would never expire it.
                let tomorrow = Date().addingTimeInterval(86_400)
                for (index, interaction) in cassette.interactions.enumerated() where interaction.recordedAt > tomorrow {
                    Console.write("\(path): note: interactions[\(index)].recordedAt is \(RFC3339Date.format(interaction.recordedAt, fractionDigits: 0)), "
                        + "in the future, so its age cannot be told and --max-age never expires it; set it to when it was recorded\n")
                }
                for copy in CassetteLint.duplicates(in: cassette) {
                    Console.write("\(path): note: interactions[\(copy.interaction)] repeats interactions[\(copy.duplicateOf)] exactly; replay serves them in order, so keep it if the request is sent twice\n")
                }
                UntilExit.keep(cassette)
            }
            if total > 0 {
                Console.write("\(total) finding\(total == 1 ? "" : "s")\n")
                throw ExitCode(ExitStatus.badStatus)
            }
            Console.write("\(cassettes.count == 1 ? cassettes[0] : "\(cassettes.count) cassettes"): no findings\n")
        }
    }

    /// `tapedeck cassette prune C`.
    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "prune",
            abstract: "Drops the interactions the last replay run never played.",
            discussion: HelpText.prose("""
                Replay runs (tapedeck run --replay, the REPL's replay, withCassette in tests) record
                what they played in ~/.cache/tapedeck/usage (or $TAPEDECK_USAGE_DIR); prune reads
                that, refuses if the cassette changed since, and rewrites the cassette in its own
                format.
                """))

        @Argument(help: ArgumentHelp("The cassette.", valueName: "cassette"))
        var cassette: String

        @Flag(name: .long, help: "Print what would be dropped without writing.")
        var dryRun = false

        func run() async throws {
            let url = URL(fileURLWithPath: cassette)
            var loaded = try CassetteFile.load(url)
            let usage: CassetteUsage
            do {
                usage = try CassetteUsage.read(for: url)
            } catch {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            guard usage.matches(loaded) else {
                Console.error("\(cassette) changed since its last replay run (\(RFC3339Date.format(usage.finishedAt, fractionDigits: 0))); "
                    + "replay it again before pruning")
                throw ExitCode(ExitStatus.transport)
            }
            let dropped = Set(usage.unused)
            guard !dropped.isEmpty else {
                Console.write("\(cassette): the last replay run played all \(loaded.interactions.count) interactions; nothing to prune\n")
                return
            }
            // URLs shown as `cassette show` shows them: redacted, whatever the file holds.
            let urls = Redactor.standard.listedURLs(of: loaded)
            for index in usage.unused where index < loaded.interactions.count {
                Console.write("\(dryRun ? "would drop" : "drop") #\(index) \(loaded.interactions[index].request.method) \(urls[index])\n")
            }
            guard !dryRun else { return }
            let total = loaded.interactions.count
            loaded.interactions = loaded.interactions.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
            let format = CassetteFormat(for: url) ?? .native
            do {
                for warning in try loaded.write(to: url, format: format) { Console.warning("\(cassette): \(warning)") }
                try FileManager.default.removeItem(at: CassetteUsage.url(for: url))
            } catch {
                Console.error((error as? any LocalizedError)?.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            Console.write("pruned \(dropped.count) of \(total) interactions from \(cassette); \(loaded.interactions.count) left\n")
        }
    }

    /// `tapedeck cassette diff A B`.
    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "diff",
            abstract: "Diffs two cassettes interaction by interaction (for reviewing a re-record).",
            discussion: HelpText.prose("""
                Interactions pair up by method and URL. '~' lines list field changes (JSON bodies by
                JSON Pointer), '-' interactions only in the old cassette, '+' only in the new one.
                Dates and durations are not compared. The formats may differ (a.yaml vs b.har).
                """))

        @Argument(help: ArgumentHelp("The old cassette.", valueName: "old"))
        var old: String

        @Argument(help: ArgumentHelp("The new cassette.", valueName: "new"))
        var new: String

        @Option(name: .customLong("ignore-header"), help: ArgumentHelp("Ignore this header (repeatable), e.g. Date.", valueName: "name"))
        var ignoredHeaders: [String] = []

        @Flag(name: .long, help: "Exit with 4 when the cassettes differ.")
        var exitCode = false

        @Flag(name: .long, help: "Write the diff as a self-contained HTML page (to stdout: > diff.html).")
        var html = false

        func run() async throws {
            let diff = CassetteDiff(try CassetteFile.load(URL(fileURLWithPath: old)),
                                    try CassetteFile.load(URL(fileURLWithPath: new)),
                                    ignoredHeaders: Set(ignoredHeaders))
            Console.write(html ? CassetteViewPage.html(for: diff, oldName: old, newName: new) : diff.render(oldName: old, newName: new) + "\n")
            if exitCode, !diff.isEmpty { throw ExitCode(ExitStatus.badStatus) }
        }
    }
}
