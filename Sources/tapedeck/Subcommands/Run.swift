import ArgumentParser
import Foundation

extension TapedeckCommand {
    /// `tapedeck run`: placeholder until its owner lands it.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Runs .tape scripts non-interactively.")

        @Argument(parsing: .captureForPassthrough, help: .hidden)
        var arguments: [String] = []

        func run() async throws {
            FileHandle.standardError.write(Data("tapedeck: error: 'run' is not yet available in this build\n".utf8))
            throw ExitCode(1)
        }
    }
}
