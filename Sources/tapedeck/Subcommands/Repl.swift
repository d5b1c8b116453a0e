import ArgumentParser
import Foundation

extension TapedeckCommand {
    /// `tapedeck repl`: placeholder until its owner lands it.
    struct Repl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "repl", abstract: "Opens the interactive prompt.")

        @Argument(parsing: .captureForPassthrough, help: .hidden)
        var arguments: [String] = []

        func run() async throws {
            FileHandle.standardError.write(Data("tapedeck: error: 'repl' is not yet available in this build\n".utf8))
            throw ExitCode(1)
        }
    }
}
