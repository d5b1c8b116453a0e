import ArgumentParser
import Foundation
import Tapedeck
import TapedeckServer
import TapedeckTooling
import Synchronization

extension TapedeckCommand.CassetteCommand {
    /// `tapedeck cassette view C`: the cassette as a page in the browser, served on loopback.
    struct View: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "view",
            abstract: "Serves a page of the cassette's interactions on loopback: filter them, click one to read it whole.",
            discussion: HelpText.prose("""
                The page lists method, URL, status, size, recorded time and age; it filters by
                method, status class and text, and shows a clicked interaction's request and
                response with JSON bodies indented. Everything is in the page (nothing is fetched)
                and redacted as cassettes are. It is served at a path with a random token, on
                127.0.0.1 unless --host says otherwise. Ctrl-C stops it.
                """))

        @Argument(help: ArgumentHelp("The cassette (any format Tapedeck reads).", valueName: "cassette"))
        var cassette: String

        @Option(name: .long, help: ArgumentHelp("Address to listen on (loopback unless told otherwise).", valueName: "host"))
        var host = "127.0.0.1"

        @Option(name: .long, help: ArgumentHelp("Port to listen on; 0 picks a free one.", valueName: "port"))
        var port = 0

        @Option(name: .customLong("port-file"), help: ArgumentHelp("Write the port chosen to this file, and the page's token to FILE.token (for scripts).", valueName: "file"))
        var portFile: String?

        @Flag(name: .long, help: "Open the page in the default browser (xdg-open, or open on macOS).")
        var open = false

        func run() async throws {
            let loaded = try CassetteFile.load(URL(fileURLWithPath: cassette))
            let page = Data(CassetteViewPage.html(for: loaded, name: (cassette as NSString).lastPathComponent).utf8)
            let token = DeckOptions.randomToken()
            let listener: HTTPListener
            let origin = ListeningOrigin()
            do {
                listener = try await HTTPListener.bind(host: host, port: port) { request in
                    // Addressed to this server by name, as the control endpoints are: a DNS name
                    // rebound to loopback does not reach the page.
                    guard let url = origin.url, let named = ControlGate.onlyHost(request.headers),
                          ControlGate.accepts(named, origin: url) else {
                        return .text(421, "the viewer answers requests addressed to it only (open the address tapedeck cassette view printed)\n")
                    }
                    guard request.method == "GET" || request.method == "HEAD" else {
                        return .text(405, "the viewer only answers GET\n", headers: ["Allow": "GET, HEAD"])
                    }
                    guard ControlGate.equal(request.path, "/\(token)/") else {
                        return .text(404, "nothing here; open the address tapedeck cassette view printed\n")
                    }
                    return ServerReply(response: HTTPResponse(status: 200, headers: [
                        "Content-Type": "text/html; charset=utf-8",
                        "Cache-Control": "no-store",
                        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
                        "Referrer-Policy": "no-referrer",
                    ], body: page))
                }
            } catch {
                Console.error(error.errorDescription ?? "\(error)")
                throw ExitCode(ExitStatus.transport)
            }
            origin.url = listener.url
            if !ListenOptions.isLoopback(host) {
                Console.warning("listening on \(host), beyond loopback: the cassette's interactions are reachable from other machines "
                    + "by anyone with the address printed below")
            }
            let stop = ServerRunner.catchStopSignals()
            let address = listener.url.absoluteString + "/\(token)/"
            if let portFile {
                try OutputPath.write(Data("\(listener.url.port ?? 0)\n".utf8), to: URL(fileURLWithPath: portFile))
                // The page's path token beside it (readable by its owner only), as serve writes its control token.
                try OutputPath.write(Data((token + "\n").utf8), to: URL(fileURLWithPath: portFile + ".token"), mode: 0o600)
            }
            Console.write("viewing \(cassette) (\(loaded.interactions.count) interactions) at \(address) · Ctrl-C to stop\n")
            if open { Self.openInBrowser(address) }
            await stop.wait()
            await listener.close()
        }

        private static func openInBrowser(_ address: String) {
            let process = Process()
            #if os(macOS)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
            process.arguments = [address]
            #else
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", address]
            #endif
            do { try process.run() } catch {
                Console.warning("cannot open a browser (\(error.localizedDescription)); open \(address) yourself")
            }
        }
    }
}

/// The address a server listens on, known once it is bound: what its handler, made before,
/// checks each request's `Host` against.
private final class ListeningOrigin: Sendable {
    private let storage = Mutex<URL?>(nil)
    var url: URL? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
