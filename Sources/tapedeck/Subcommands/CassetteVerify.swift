import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckShell

extension TapedeckCommand.CassetteCommand {
    /// `tapedeck cassette verify C`: re-sends recorded requests and reports drift.
    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Re-sends the recorded requests to the live origin and reports what drifted.",
            discussion: HelpText.prose("""
                Only GET, HEAD and OPTIONS are sent unless --methods names others. \
                Placeholders left by redaction are filled from variables named after the field \
                (Authorization → authorization, ?api_key → api_key, Cookie session → session): \
                --var, --env-file, else the environment variable TAPEDECK_<NAME> (TAPEDECK_AUTHORIZATION).

                Credentials are filled only for the host each interaction was recorded against. \
                With --origin elsewhere, or a cassette edited to name another host, nothing is sent \
                until --allow-credentials-to names that host; once given, only the hosts it names \
                receive credentials (pin it in CI, where a pull request can edit a cassette).

                Compared by default: status and shape (JSON members added, removed or retyped, at \
                JSON Pointers; other bodies: content type and size class).

                EXIT CODES
                  0  every verified interaction is unchanged
                  1  usage error
                  3  a request failed (network) or the cassette could not be read or written
                  4  something drifted
                """))

        @Argument(help: ArgumentHelp("The cassette.", valueName: "cassette"))
        var cassette: String

        @Option(name: .long, help: ArgumentHelp("Send to this origin instead of the recorded one.", valueName: "url"))
        var origin: String?

        @Option(name: .customLong("allow-credentials-to"), help: ArgumentHelp("A host that may receive filled-in credentials (repeatable; default: the recorded host).", valueName: "host"))
        var allowCredentialsTo: [String] = []

        @Option(name: .long, help: ArgumentHelp("Methods to send, comma-separated (default GET,HEAD,OPTIONS).", valueName: "list"))
        var methods: String?

        @Option(name: .long, help: ArgumentHelp("Skip this JSON Pointer and what is below it (repeatable; * matches any key).", valueName: "pointer"))
        var ignore: [String] = []

        @Option(name: .long, help: ArgumentHelp("What to compare: status, headers:NAME, shape, values (default status,shape).", valueName: "list"))
        var compare: String?

        @Flag(name: .long, help: "Re-record the drifted interactions in place (the others stay byte-identical).")
        var update = false

        @Option(name: .customLong("report-junit"), help: ArgumentHelp("Write a JUnit XML report.", valueName: "file"))
        var reportJUnit: String?

        @Option(name: .customLong("var"), help: ArgumentHelp("A credential or variable (repeatable).", valueName: "name=value"))
        var variables: [String] = []

        @Option(name: .customLong("env-file"), help: ArgumentHelp("Read KEY=value variables from a file (repeatable).", valueName: "file"))
        var envFiles: [String] = []

        @Option(name: .long, help: ArgumentHelp("Seconds each request may take.", valueName: "seconds"))
        var timeout: Double = 30

        @Flag(name: [.customLong("insecure"), .customShort("k")], help: "Do not verify TLS certificates.")
        var insecure = false

        func validate() throws {
            do { _ = try DriftOptions(compare: compare, ignoring: ignore) } catch {
                let option = if case .invalidIgnore = error { "--ignore" } else { "--compare" }
                throw ValidationError("\(option): " + (error.errorDescription ?? "\(error)"))
            }
            if let methods {
                do { _ = try CassetteVerifier.Options.methods(parsing: methods) } catch {
                    throw ValidationError("--methods: " + (error.errorDescription ?? "\(error)"))
                }
            }
            if let origin { _ = try Self.parseOrigin(origin) }
            guard timeout.isFinite, timeout > 0 else {
                throw ValidationError("--timeout \(timeout) is not valid; give the seconds to wait, e.g. --timeout 30")
            }
        }

        /// A verify error worded for the command line: the flags that fix it.
        @Sendable static func describe(_ error: VerifyError) -> String {
            error.message(giving: { "with --var \($0)=VALUE (or the environment variable \($1))" },
                          allowing: { host, pinned in (why: pinned ? "which --allow-credentials-to does not name" : nil,
                                                       fix: "add --allow-credentials-to \(host)") })
        }

        static func parseOrigin(_ text: String) throws -> URL {
            do { return try URLComposer.parseBase(text) } catch {
                throw ValidationError("--origin '\(text)' is not an http(s) URL; write it as http://127.0.0.1:8080")
            }
        }

        func run() async throws {
            let url = URL(fileURLWithPath: cassette)
            let loaded = try CassetteFile.load(url)
            var options = CassetteVerifier.Options()
            options.drift = try DriftOptions(compare: compare, ignoring: ignore)
            if let methods { options.methods = try CassetteVerifier.Options.methods(parsing: methods) }
            options.origin = try origin.map(Self.parseOrigin)
            options.credentials = CredentialFill(variables: try VariableOption.load(envFiles: envFiles, variables: variables))
            options.credentialHosts = Set(allowCredentialsTo.map { $0.lowercased() })
            options.describe = Self.describe
            options.describeFailure = { error in (error as? HTTPError)?.commandLineDescription ?? (error as? any LocalizedError)?.errorDescription ?? "\(error)" }
            let live = CurlTransport(options: .init(timeout: timeout, followRedirects: false, verifyTLS: !insecure))
            let verifier = CassetteVerifier(live: live, options: options)
            let report = await verifier.verify(loaded, path: cassette)
            Console.write(report.render() + "\n")
            var code = report.exitCode
            if update, !report.drifted.isEmpty {
                let updated = verifier.updating(loaded, with: report)
                let findings = SecretLint.findings(in: updated).filter { report.drifted.contains($0.interaction) }
                if let finding = findings.first {
                    Console.error("not updating \(cassette): the live response of \(finding.description) still holds a credential; "
                        + "redact it (TAPEDECK_REDACT=NAME) and verify again")
                    throw ExitCode(ExitStatus.transport)
                }
                do {
                    for warning in try updated.write(to: url, format: CassetteFormat(for: url) ?? .native) {
                        Console.warning("\(cassette): \(warning)")
                    }
                } catch {
                    Console.error(error.errorDescription ?? "\(error)")
                    throw ExitCode(ExitStatus.transport)
                }
                Console.write("updated \(report.drifted.count) drifted interaction\(report.drifted.count == 1 ? "" : "s") in \(cassette): "
                    + report.drifted.map { "#\($0)" }.joined(separator: ", ") + "\n")
                if code == ExitStatus.badStatus { code = 0 }
            }
            if let reportJUnit {
                do { try Data(report.junitXML().utf8).write(to: URL(fileURLWithPath: reportJUnit), options: .atomic) } catch {
                    Console.error("cannot write the report to \(reportJUnit): \(error.localizedDescription)")
                    if code == 0 { code = ExitStatus.usage }
                }
            }
            if code != 0 { throw ExitCode(code) }
        }
    }
}
