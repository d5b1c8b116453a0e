import ArgumentParser
import Foundation
import Tapedeck
import TapedeckOpenAPI

extension TapedeckCommand.CassetteCommand {
    /// `tapedeck cassette check C --openapi spec.yaml`: validates recorded traffic against an OpenAPI document.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Checks every recorded request and response against an OpenAPI 3.0 or 3.1 document.",
            discussion: HelpText.prose("""
                Finds unknown paths and methods, undocumented statuses, missing or mistyped path,
                query and header parameters, and JSON request and response bodies that do not match
                their schemas (types, required, enum, integer formats, additionalProperties, allOf/
                anyOf/oneOf/not, $ref). Each finding names the interaction, the JSON Pointer in the
                body and the schema's location in the document.

                EXIT CODES
                  0  no findings
                  1  usage error
                  2  the OpenAPI document or the cassette could not be read
                  4  findings (one per line on stdout)
                """))

        @Argument(help: ArgumentHelp("The cassette (Tapedeck JSON, vcrpy YAML or HAR).", valueName: "cassette"))
        var cassette: String

        @Option(name: .long, help: ArgumentHelp("The OpenAPI 3.0 or 3.1 document (YAML or JSON).", valueName: "spec"))
        var openapi: String

        func run() async throws {
            let spec: OpenAPISpec
            let loaded: Cassette
            do {
                spec = try OpenAPISpec.load(URL(fileURLWithPath: openapi), named: openapi)
                loaded = try Cassette.load(from: URL(fileURLWithPath: cassette))
            } catch let error as any LocalizedError {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.unreadableInput)
            }
            let findings = CassetteOpenAPICheck(spec: spec).findings(in: loaded)
            for finding in findings { Console.write("\(cassette): \(finding)\n") }
            let count = loaded.interactions.count
            let checked = "\(count) interaction\(count == 1 ? "" : "s") checked against \(openapi)"
            if findings.isEmpty {
                Console.write("\(cassette): \(checked): no findings\n")
                return
            }
            Console.write("\(findings.count) finding\(findings.count == 1 ? "" : "s") (\(checked))\n")
            throw ExitCode(ExitStatus.badStatus)
        }
    }
}
