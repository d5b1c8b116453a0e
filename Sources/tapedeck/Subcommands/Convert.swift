import ArgumentParser
import Foundation

extension TapedeckCommand {
    /// `tapedeck convert`: placeholder until its owner lands it.
    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "convert", abstract: "Converts cassettes between native JSON, vcrpy YAML and HAR.")

        @Argument(parsing: .captureForPassthrough, help: .hidden)
        var arguments: [String] = []

        func run() async throws {
            FileHandle.standardError.write(Data("tapedeck: error: 'convert' is not yet available in this build\n".utf8))
            throw ExitCode(1)
        }
    }
}
