#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Dispatch
import Foundation
import Tapedeck
import TapedeckServer

/// Runs a started server until SIGINT or SIGTERM: then writes recordings, prints the tape
/// summary and exits 0; a second signal exits at once.
enum ServerRunner {
    @MainActor
    static func run(_ server: CassetteServer, banner: String, portFile: String?, host: String, tokenChosen: Bool = false) async throws {
        let token = server.deck.options.controlToken
        if let portFile {
            do {
                try Data("\(server.listener.port)\n".utf8).write(to: URL(fileURLWithPath: portFile), options: .atomic)
                // The token beside it, readable by the owner only, for scripts and test runners.
                try OutputPath.write(Data((token + "\n").utf8), to: URL(fileURLWithPath: portFile + ".token"))
            } catch {
                await server.stop()
                throw ValidationError("cannot write --port-file '\(portFile)' and its .token file: \(error.localizedDescription)")
            }
        }
        if !ListenOptions.isLoopback(host) {
            Console.warning("listening on \(host), not loopback: every cassette it serves (recorded responses, with whatever they "
                + "hold) and the traffic it proxies are reachable from other machines; the control endpoints still need the token")
        }
        Console.write(banner + "\n")
        // A token the user chose is theirs to know: printing it would put it in every CI log.
        let shown = tokenChosen ? "<your --control-token>" : token
        Console.write("control: curl -H 'X-Tapedeck-Token: \(shown)' \(server.url.absoluteString)/__tapedeck/status\n")
        if server.deck.options.inspector {
            Console.write("inspector: \(server.url.absoluteString)/__tapedeck/ui/\(tokenChosen ? "YOUR-CONTROL-TOKEN" : token)/\n")
        }
        Console.flush()
        await waitForSignal()
        let summary = await server.stop()
        FileHandle.standardError.write(Data((summary + "\n").utf8))
    }

    /// Returns on the first SIGINT/SIGTERM; a second one exits the process at once (130).
    static func waitForSignal() async {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "tapedeck.signals")
        let state = SignalState()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0, queue: queue) }
            state.keep(sources)
            for source in sources {
                source.setEventHandler {
                    if state.first() {
                        FileHandle.standardError.write(Data("stopping (press Ctrl-C again to quit at once)\n".utf8))
                        continuation.resume()
                    } else {
                        _exit(130)
                    }
                }
                source.resume()
            }
        }
    }
}

/// Whether a signal already arrived; holds the dispatch sources alive.
private final class SignalState: @unchecked Sendable {
    private let lock = NSLock()
    private var seen = false
    private var sources: [any DispatchSourceSignal] = []

    func keep(_ sources: [any DispatchSourceSignal]) { lock.withLock { self.sources = sources } }

    /// True the first time only.
    func first() -> Bool {
        lock.withLock {
            defer { seen = true }
            return !seen
        }
    }
}

/// Logs to stderr, one line per event.
enum ServerLog {
    static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data(("tapedeck: " + message + "\n").utf8))
    }
}
