import ArgumentParser
import Foundation
import Tapedeck
import TapedeckShell

extension TapedeckCommand {
    /// `tapedeck generate swift SCRIPT`: turns a script into a Swift Testing file.
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "generate",
            abstract: "Generates code from a session.",
            subcommands: [Swift.self]
        )
    }
}

extension TapedeckCommand.Generate {
    /// `tapedeck generate swift SCRIPT --cassette C --output Tests/…/NameTests.swift`.
    struct Swift: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "swift",
            abstract: "Writes a Swift Testing file that replays the script's cassette through URLSession.replaying.",
            discussion: HelpText.prose("""
                The script runs once against the cassette (no network); each request becomes a
                URLRequest and each expect an #expect on the status, a header or a JSON value by
                pointer. Expects with no plain Swift equivalent stay as comments.

                EXIT CODES
                  0  written
                  1  usage error
                  2  the script does not parse, or uses a variable nothing defines (--var NAME=VALUE)
                  3  the cassette could not be read, a request has no recorded answer, or the file could not be written
                  4  an expect fails against the cassette
                """))

        @Argument(help: ArgumentHelp("The .tape script.", valueName: "script"))
        var script: String

        @Option(name: .long, help: ArgumentHelp("The cassette the script was recorded into.", valueName: "cassette"))
        var cassette: String

        @Option(name: [.short, .long], help: ArgumentHelp("The Swift file to write (its name gives the suite: NameTests.swift).", valueName: "file"))
        var output: String

        @Option(name: .customLong("var"), help: ArgumentHelp("Set a variable (repeatable).", valueName: "name=value"))
        var variables: [String] = []

        @MainActor
        func run() async throws {
            let source: String
            do { source = try String(contentsOfFile: script, encoding: .utf8) } catch {
                throw ValidationError("cannot read script '\(script)': no such file or not UTF-8 text")
            }
            let outputURL = URL(fileURLWithPath: output).standardizedFileURL
            var suite = outputURL.deletingPathExtension().lastPathComponent
            if suite.hasSuffix("Tests") { suite.removeLast(5) }
            guard let first = suite.first, first.isLetter, suite.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw ValidationError("--output '\(output)' does not name a Swift type; call it like SmokeTests.swift")
            }
            let text: String
            do {
                text = try await SwiftTestGenerator.generate(
                    script: source, named: (script as NSString).lastPathComponent, cassette: cassette,
                    cassetteFromTest: SwiftTestGenerator.relativePath(from: outputURL.deletingLastPathComponent(),
                                                        to: URL(fileURLWithPath: cassette).standardizedFileURL),
                    suite: suite, variables: try VariableOption.parse(variables))
            } catch {
                Console.error((error as? any LocalizedError)?.errorDescription ?? "\(error)")
                throw ExitCode(Self.exitStatus(for: error))
            }
            do {
                try OutputPath.write(Data(text.utf8), to: outputURL)
            } catch {
                Console.error("cannot write \(output): \(error.reason)")
                throw ExitCode(ExitStatus.transport)
            }
            Console.write("wrote \(output)\n")
        }

        /// The script's own errors (it does not parse, or uses a variable nothing defines) are 2,
        /// a failing expect 4, the cassette or a request 3: as `tapedeck run` counts them.
        static func exitStatus(for error: any Error) -> Int32 {
            guard let error = error as? ShellError else { return ExitStatus.transport }
            switch error {
            case .parse, .undefinedVariable: return ExitStatus.unreadableInput
            case .assertionFailed: return ExitStatus.badStatus
            default: return ExitStatus.transport
            }
        }

    }
}
