@preconcurrency import Glibc
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling
import TapedeckCurl
import TapedeckShell

/// `--match SPEC`, `--origin URL` and `--repeat` for the cassettes of the REPL, `tapedeck run`
/// and `tapedeck serve`.
struct CassetteMatchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "What else a request must match, comma-separated: body (as JSON), body:raw, body:form, header:NAME, ignore-query:NAME (method and URL always).",
        valueName: "spec"))
    var match: String?

    @Option(name: .long, help: ArgumentHelp("Serve the cassette as if it was recorded at this origin (e.g. http://127.0.0.1:8080).", valueName: "url"))
    var origin: String?

    @Flag(name: .long, help: "Serve the last match again once every identical interaction was played.")
    var `repeat` = false

    func validate() throws {
        _ = try matcher()
        _ = try originURL()
    }

    func matcher() throws -> Matcher {
        guard let match else { return Matcher() }
        do { return try Matcher(spec: match) } catch { throw ValidationError("--match: " + (error.errorDescription ?? "")) }
    }

    func originURL() throws -> URL? {
        guard let origin else { return nil }
        guard let url = URL(string: origin), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false else {
            throw ValidationError("--origin '\(origin)' is not an origin; give scheme, host and port, e.g. --origin http://127.0.0.1:8080")
        }
        return url
    }

    func sessions(environment: [String: String], context: FixContext = .repl) throws -> CassetteController {
        CassetteController(environment: environment, allowRepeats: `repeat`, matcher: try matcher(), origin: try originURL(), context: context)
    }
}
