import ArgumentParser
import Foundation
import Tapedeck

extension TapedeckCommand {
    /// `tapedeck convert IN OUT`: converts cassettes between native JSON, vcrpy YAML and HAR.
    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Converts cassettes between Tapedeck JSON, vcrpy YAML and HAR 1.2.",
            discussion: """
                Formats follow the extensions: .cassette.json or .json (Tapedeck), .yaml or .yml
                (vcrpy, version 1), .har (HAR 1.2). Nothing is lost where the target can hold it;
                whatever it cannot is named in a warning on stderr (e.g. HAR 1.2 has no encoding
                for binary request bodies: they go to postData._base64Body, which only Tapedeck reads).
                Compressed bodies stored by other tools are decoded (Content-Encoding removed).

                EXIT CODES
                  0  converted (warnings, if any, on stderr)
                  1  usage error: unknown extension, same file for input and output
                  3  the input could not be read or parsed, or the output written
                """
        )

        @Argument(help: ArgumentHelp("The cassette to read.", valueName: "in"))
        var input: String

        @Argument(help: ArgumentHelp("The file to write; its extension picks the format.", valueName: "out"))
        var output: String

        func run() async throws {
            let inURL = URL(fileURLWithPath: input), outURL = URL(fileURLWithPath: output)
            _ = try CassetteFormat.detect(inURL)
            let outFormat = try CassetteFormat.detect(outURL)
            guard inURL.standardizedFileURL.path != outURL.standardizedFileURL.path else {
                throw ValidationError("input and output are the same file (\(input)); choose another output name")
            }
            let cassette = try CassetteFile.load(inURL)
            let warnings: [ConversionWarning]
            do {
                warnings = try cassette.write(to: outURL, format: outFormat)
            } catch {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            for warning in warnings { Console.warning("\(output): \(warning)") }
            Console.write("converted \(cassette.interactions.count) interaction\(cassette.interactions.count == 1 ? "" : "s"): "
                + "\(input) (\(CassetteFile.formatName(inURL))) → \(output) (\(outFormat))\(warnings.isEmpty ? "" : ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")")\n")
        }
    }
}

/// Loading cassettes for the cassette commands: any format, errors printed with exit code 3.
enum CassetteFile {
    static func load(_ url: URL) throws -> Cassette {
        do {
            return try Cassette.load(from: url)
        } catch {
            Console.error(error.errorDescription ?? "\(error)")
            throw ExitCode(ExitStatus.transport)
        }
    }

    /// "vcrpy YAML", "HAR 1.2", "Tapedeck JSON", or "vcrpy JSON" for a `.json` file vcrpy wrote.
    static func formatName(_ url: URL) -> String {
        let format = CassetteFormat(for: url) ?? .native
        if format == .native, let data = FileManager.default.contents(atPath: url.path),
           VCRCassetteReader.looksLikeVCRJSON(data) {
            return "vcrpy JSON"
        }
        return format.description
    }
}
