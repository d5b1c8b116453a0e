import ArgumentParser
import Foundation

extension TapedeckCommand {
    /// `tapedeck cassette`: placeholder until its owner lands it.
    struct CassetteCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cassette", abstract: "Inspects and lints cassettes.")

        @Argument(parsing: .captureForPassthrough, help: .hidden)
        var arguments: [String] = []

        func run() async throws {
            FileHandle.standardError.write(Data("tapedeck: error: 'cassette' is not yet available in this build\n".utf8))
            throw ExitCode(1)
        }
    }
}
