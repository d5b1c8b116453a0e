import ArgumentParser
import Foundation
import TapedeckShell

extension TapedeckCommand {
    /// `tapedeck import curl …`: prints the Tapedeck command for a curl command.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Translates commands from other tools into Tapedeck commands.",
            subcommands: [Curl.self]
        )
    }
}

extension TapedeckCommand.Import {
    /// `tapedeck import curl [ARGS…]`.
    struct Curl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "curl",
            abstract: "Prints the Tapedeck request command that sends what a curl command sends.",
            discussion: HelpText.prose("""
                Give curl's arguments (tapedeck import curl -X POST http://localhost:8080/post -d a=1),
                the whole command as one argument, or nothing to read it from stdin (a browser's
                Copy as cURL, line continuations included). A curl line also works as is at the
                prompt and in scripts. Options Tapedeck does not translate are named as errors.

                EXIT CODES
                  0  translated
                  2  the command cannot be translated (the message names the option)
                """))

        @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("curl's arguments, or the whole command.", valueName: "curl-args"))
        var arguments: [String] = []

        func run() async throws {
            // curl's arguments pass through unparsed, so help is asked for here: alone, it is ours.
            if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
                Console.write(Self.helpMessage() + "\n")
                return
            }
            let result: CurlImport.Result
            do {
                if arguments.isEmpty {
                    let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
                    result = try CurlImport.convert(text.trimmingCharacters(in: .whitespacesAndNewlines))
                } else if arguments.count == 1, CurlImport.isCurl(arguments[0]) {
                    result = try CurlImport.convert(arguments[0])
                } else {
                    let words = arguments.first == "curl" ? arguments : ["curl"] + arguments
                    result = try CurlImport.convert(words: words)
                }
            } catch {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(2)
            }
            for note in result.notes { Console.warning(note) }
            Console.write(result.command + "\n")
        }
    }
}
