import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer

extension TapedeckCommand {
    /// `tapedeck serve CASSETTE...`: answers any HTTP client from cassettes.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serves cassettes over HTTP to any client (replay server).",
            discussion: HelpText.prose("""
                Native JSON, vcrpy YAML and HAR cassettes are served as if recorded at the
                URL it prints (or --origin): request URLs, Location headers and bodies say
                that origin. Each interaction answers once, in cassette order, as in replay; --repeat
                lets interactions answer again. An unmatched request gets the mismatch report as text with
                status 404 (or --unmatched STATUS) and the header X-Tapedeck-Unmatched: 1,
                and is logged to stderr; --unmatched forward --upstream URL sends it there
                instead. --tls serves HTTPS with a certificate from your local CA (tapedeck
                ca). --intercept makes it an HTTPS proxy that answers from the cassettes: a
                client with HTTPS_PROXY set to the printed URL gets replayed answers for
                https://api.example.com/… with no change to its URLs, as recorded by
                tapedeck proxy --intercept. Control endpoints live under /__tapedeck/ (status, reset, load,
                record/start, record/stop). Ctrl-C or SIGTERM prints the tape summary and
                exits 0.
                """)
        )

        @Argument(help: ArgumentHelp("Cassettes to serve together.", valueName: "cassette"))
        var cassettes: [String] = []

        @OptionGroup var listen: ListenOptions

        @OptionGroup var cassetteOptions: CassetteMatchOptions

        @OptionGroup var https: HTTPSFlags

        @OptionGroup var tls: ServeTLSFlags

        @Option(name: .long, help: ArgumentHelp("Status for unmatched requests (default 404), or forward (needs --upstream).", valueName: "status|forward"))
        var unmatched: String?

        @Option(name: .long, help: ArgumentHelp("Where --unmatched forward sends requests, and record/start records from.", valueName: "url"))
        var upstream: String?

        @Option(name: .customLong("mount"), help: ArgumentHelp("Serve a cassette under a path prefix (repeatable).", valueName: "/prefix=cassette"))
        var mounts: [String] = []

        func validate() throws {
            if cassettes.isEmpty && mounts.isEmpty {
                throw ValidationError("give at least one cassette: tapedeck serve Sessions/api.cassette.json")
            }
            _ = try parsedMounts()
            _ = try options()
        }

        func parsedMounts() throws -> [(prefix: String, cassette: URL)] {
            try mounts.map { mount in
                guard let equals = mount.firstIndex(of: "="), mount.hasPrefix("/"), equals != mount.index(before: mount.endIndex) else {
                    throw ValidationError("--mount '\(mount)' is not /prefix=CASSETTE; write --mount /v1=Sessions/v1.cassette.json")
                }
                let prefix = String(mount[..<equals])
                if let problem = Deck.mountProblem(prefix) { throw ValidationError("--mount: \(problem)") }
                return (prefix, URL(fileURLWithPath: String(mount[mount.index(after: equals)...])))
            }
        }

        func options() throws -> DeckOptions {
            var options = DeckOptions(live: try https.upstreamTransport(timeout: 0), log: ServerLog.standardError)
            options.matcher = try cassetteOptions.matcher()
            options.origin = try cassetteOptions.originURL()
            options.allowRepeats = cassetteOptions.repeat
            if let unmatched {
                do { options.unmatched = try UnmatchedPolicy(parsing: unmatched) } catch { throw ValidationError(error.errorDescription ?? "\(error)") }
            }
            if let upstream {
                do { options.upstream = try UpstreamURL.parse(upstream) { "--upstream \($0)" } } catch { throw ValidationError(error.message) }
            }
            if options.unmatched == .forward, options.upstream == nil {
                throw ValidationError("--unmatched forward needs --upstream URL, e.g. --upstream http://127.0.0.1:8000")
            }
            try listen.apply(to: &options)
            return options
        }

        /// ``options()`` with HTTPS set up (the CA made on first use): for running, not validating.
        func runningOptions() throws -> DeckOptions {
            var options = try options()
            try https.apply(to: &options, listeningOn: listen.host, tls: tls)
            return options
        }

        func run() async throws {
            let server: CassetteServer
            do {
                server = try await CassetteServer.serve(cassettes.map { URL(fileURLWithPath: $0) }, mounts: try parsedMounts(),
                                                        host: listen.host, port: listen.port, options: try runningOptions())
            } catch let error as CassetteError {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            let count = cassettes.count + mounts.count
            let intercepting = https.intercept ? " (HTTPS intercepted: HTTPS_PROXY=\(server.url.absoluteString))" : ""
            try await ServerRunner.run(server, banner: "serving \(count) cassette\(count == 1 ? "" : "s") at \(server.url.absoluteString)\(intercepting)",
                                       portFile: listen.portFile, host: listen.host,
                                       tokenChosen: listen.controlToken != nil)
        }
    }
}
