import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer

extension TapedeckCommand {
    /// `tapedeck proxy UPSTREAM --record C`: records what any HTTP client sends through it;
    /// `tapedeck proxy --intercept --record C`: records HTTPS too, as a forward proxy.
    struct Proxy: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "proxy",
            abstract: "Records any HTTP client's traffic to an upstream into a cassette (recording proxy).",
            discussion: HelpText.prose("""
                A reverse proxy: point the client at the URL it prints instead of UPSTREAM.
                Also a forward proxy for plain http:// (HTTP_PROXY=URL): absolute-form
                requests go to the host they name. With --intercept it is an HTTPS proxy
                too (HTTPS_PROXY=URL): each CONNECT is answered with a certificate for its
                host from your local CA (tapedeck ca), and the requests inside are recorded
                as https:// interactions; UPSTREAM may then be left out. Clients trust the
                CA with eval "$(tapedeck ca env)" or tapedeck ca trust. --pass-through HOST
                relays a host's tunnel untouched (certificate pinning). The upstream's
                certificate is verified against the system's roots (--upstream-ca FILE adds
                one; --insecure-upstream turns verification off). Without --intercept a
                CONNECT gets 501. The upstream is reached without http_proxy from the
                environment, and a request that comes back around gets 508.
                Recording redacts credentials, refuses secrets (TAPEDECK_REDACT,
                TAPEDECK_SECRET_LINT), stores decoded gzip bodies and each redirect hop, and
                stores UPSTREAM as the cassette's base URL, so it replays through tapedeck
                serve, tapedeck run --replay and URLSession.replaying. --mode new replays
                what is recorded and records the rest; once (the default) records when the
                cassette is missing; all re-records. Ctrl-C or SIGTERM answers the requests
                already read (up to 3 s), writes the cassette, prints the tape summary and
                exits 0.
                """)
        )

        @Argument(help: ArgumentHelp("The server to record, e.g. http://127.0.0.1:8000 (optional with --intercept).", valueName: "upstream"))
        var upstream: String?

        @Option(name: .long, help: ArgumentHelp("The cassette to record into.", valueName: "cassette"))
        var record: String

        @Option(name: .long, help: ArgumentHelp("Record mode: once, new, all (TAPEDECK_RECORD_MODE overrides).", valueName: "mode"))
        var mode: String?

        @Option(name: .long, help: ArgumentHelp("What else a request must match to replay in mode new: body, header:NAME, ….", valueName: "spec"))
        var match: String?

        @Option(name: .long, help: ArgumentHelp("Seconds to wait for the upstream's answer.", valueName: "seconds"))
        var timeout: Double = 30

        @Flag(name: .customLong("record-failures"), help: "Store refused connections, unknown hosts and timeouts as interactions; replay fails the same way.")
        var recordFailures = false

        @OptionGroup var listen: ListenOptions

        @OptionGroup var https: HTTPSFlags

        func validate() throws {
            if upstream == nil, !https.intercept {
                throw ValidationError("give the server to record, e.g. tapedeck proxy http://127.0.0.1:8000 --record api.cassette.json "
                    + "(or record HTTPS as a forward proxy: tapedeck proxy --intercept --record api.cassette.json)")
            }
            _ = try upstreamURL()
            if let mode, RecordMode(rawValue: mode) == nil {
                throw ValidationError("--mode '\(mode)' is not a record mode; use once, new or all")
            }
            _ = try matcher()
            guard timeout.isFinite, timeout > 0 else { throw ValidationError("--timeout \(timeout) must be a positive number of seconds, e.g. --timeout 30") }
        }

        func upstreamURL() throws -> URL? {
            guard let upstream else { return nil }
            do { return try UpstreamURL.parse(upstream) { "tapedeck proxy \($0) --record api.cassette.json" } } catch { throw ValidationError(error.message) }
        }

        func matcher() throws -> Matcher {
            guard let match else { return Matcher() }
            do { return try Matcher(spec: match) } catch { throw ValidationError("--match: " + (error.errorDescription ?? "")) }
        }

        func run() async throws {
            var options = DeckOptions(live: try https.upstreamTransport(timeout: timeout), log: ServerLog.standardError)
            options.matcher = try matcher()
            options.recordFailures = recordFailures
            try listen.apply(to: &options)
            try https.apply(to: &options, listeningOn: listen.host)
            let server: CassetteServer
            let requested = mode.flatMap(RecordMode.init(rawValue:))
            do {
                let resolved = try RecordMode.resolve(requested)
                server = try await CassetteServer.proxy(to: try upstreamURL(), recordingTo: URL(fileURLWithPath: record), mode: resolved,
                                                        host: listen.host, port: listen.port, options: options)
            } catch CassetteError.missing(let path, let context) where RecordMode.isCIDefault(requested) {
                Console.error(CassetteError.missing(path: path, context: CIDefaultWording(inner: context)).errorDescription ?? path)
                throw ExitCode(ExitStatus.transport)
            } catch let error as CassetteError {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            let target = try upstreamURL().map { Redactor.redactingPassword($0).absoluteString } ?? "the hosts clients name"
            let intercepting = https.intercept ? " (HTTPS intercepted: HTTPS_PROXY=\(server.url.absoluteString))" : ""
            try await ServerRunner.run(server, banner: "proxying \(server.url.absoluteString) → \(target), recording into \(record)\(intercepting)",
                                       portFile: listen.portFile, host: listen.host,
                                       tokenChosen: listen.controlToken != nil)
        }
    }
}
