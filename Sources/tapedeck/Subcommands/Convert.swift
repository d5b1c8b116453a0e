import ArgumentParser
import Foundation
import Synchronization
import Tapedeck

extension TapedeckCommand {
    /// `tapedeck convert IN OUT`: converts cassettes between native JSON, vcrpy YAML and HAR.
    struct Convert: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "convert",
            abstract: "Converts cassettes between Tapedeck JSON, vcrpy YAML, cassetter YAML and HAR 1.2.",
            discussion: HelpText.prose("""
                Formats follow the extensions: .cassette.json or .json (Tapedeck), .yaml or .yml
                (vcrpy, version 1), .cassetter.yaml (cassetter), .har (HAR 1.2); --format picks the
                output format whatever the name. A .yaml input is read as vcrpy or cassetter by its
                content. Nothing is lost where the target can hold it;
                whatever it cannot is named in a warning on stderr (e.g. HAR 1.2 has no encoding
                for binary request bodies: they go to postData._base64Body, which only Tapedeck reads).
                Compressed bodies stored by other tools are decoded (Content-Encoding removed).
                Credentials are redacted as when recording (one placeholder per value, everywhere),
                and the output is created with mode 0600.

                EXIT CODES
                  0  converted (warnings, if any, on stderr)
                  1  usage error: unknown extension, same file for input and output
                  3  the input could not be read or parsed, or the output written
                """)
        )

        @Argument(help: ArgumentHelp("The cassette to read.", valueName: "in"))
        var input: String

        @Argument(help: ArgumentHelp("The file to write; its extension picks the format.", valueName: "out"))
        var output: String

        @Option(name: .long, help: ArgumentHelp("The output format: native, vcr, cassetter or har (default: by extension).",
                                                valueName: "format"))
        var format: String?

        func run() async throws {
            let inURL = URL(fileURLWithPath: input), outURL = URL(fileURLWithPath: output)
            _ = try CassetteFormat.detect(inURL)
            let outFormat: CassetteFormat
            if let format {
                guard let named = CassetteFormat(name: format) else {
                    throw ValidationError("--format '\(format)' is not a cassette format; use native, vcr, cassetter or har")
                }
                outFormat = named
            } else {
                outFormat = try CassetteFormat.detect(outURL)
            }
            guard inURL.standardizedFileURL.path != outURL.standardizedFileURL.path else {
                throw ValidationError("input and output are the same file (\(input)); choose another output name")
            }
            try OutputOption.check(output, option: "output")
            let cassette = Redactor.standard.redact(try CassetteFile.load(inURL))
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

/// What a command reads until it ends, kept from being released value by value: the system takes
/// a process's memory back at once when it exits, where releasing a loaded cassette interaction by
/// interaction took about a tenth of `cassette show`'s time, all on one core. Holds one value; keeping
/// another releases the one before.
enum UntilExit {
    private static let kept = Mutex<(any Sendable)?>(nil)

    static func keep(_ value: some Sendable) {
        let before = kept.withLock { kept in
            let before = kept
            kept = value
            return before
        }
        _ = before
    }
}

/// Loading cassettes for the cassette commands: any format, errors printed with exit code 3.
enum CassetteFile {
    /// The cassette, with what its reader turned into something else shown as warnings.
    static func load(_ url: URL) throws -> Cassette {
        do {
            let cassette = try Cassette.load(from: url)
            for warning in cassette.loadWarnings(readFrom: url) { Console.warning(warning) }
            return cassette
        } catch {
            Console.error(error.errorDescription ?? "\(error)")
            throw ExitCode(ExitStatus.transport)
        }
    }

    /// "vcrpy YAML", "HAR 1.2", "Tapedeck JSON", or "vcrpy JSON" for a `.json` file vcrpy wrote.
    static func formatName(_ url: URL) -> String {
        let format = CassetteFormat(for: url) ?? .native
        if format == .vcrYAML, let data = FileManager.default.contents(atPath: url.path), CassetterReader.recognizes(data) {
            return CassetteFormat.cassetter.description
        }
        if format == .native, VCRCassetteReader.looksLikeVCRJSON(head(of: url)) {
            return "vcrpy JSON"
        }
        return format.description
    }

    /// The first 4 KiB of the file, all the sniff reads: a 100,000-interaction cassette is not
    /// read whole a second time for its name.
    private static func head(of url: URL) -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else { return Data() }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4_096)) ?? Data()
    }
}
