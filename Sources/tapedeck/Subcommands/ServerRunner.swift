#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Dispatch
import Foundation
import Tapedeck
import TapedeckServer

/// Runs a started server until SIGINT or SIGTERM: then writes recordings, prints the tape
/// summary and exits 0 (3 when a cassette could not be written); a second signal exits at once.
enum ServerRunner {
    @MainActor
    static func run(_ server: CassetteServer, banner: String, portFile: String?, host: String, tokenChosen: Bool = false) async throws {
        let stop = catchStopSignals()
        let token = server.deck.options.controlToken
        if let portFile {
            do {
                try Data("\(server.listener.port)\n".utf8).write(to: URL(fileURLWithPath: portFile), options: .atomic)
                // The token beside it, readable by the owner only, for scripts and test runners.
                try OutputPath.write(Data((token + "\n").utf8), to: URL(fileURLWithPath: portFile + ".token"), mode: 0o600)
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
        await stop.wait()
        let summary = await server.stop()
        FileHandle.standardError.write(Data((summary + "\n").utf8))
        // A cassette that could not be written (its journal is kept) is a failure, as `run` reports it.
        if server.deck.finishFailed.load(ordering: .relaxed) { throw ExitCode(ExitStatus.transport) }
    }

    /// Catches SIGINT and SIGTERM from now on; ``StopSignal/wait()`` returns on the first, and a
    /// second exits the process at once (130). Install it before printing the address a caller
    /// waits for, so a signal sent as soon as the banner appears is never lost.
    static func catchStopSignals() -> StopSignal { StopSignal() }
}

/// The write end of ``StopSignal``'s pipe, for the signal handler (which can capture nothing).
private nonisolated(unsafe) var stopSignalPipe: Int32 = -1

/// SIGINT and SIGTERM, caught from the moment it is made: the handler is installed with
/// `sigaction` before `init` returns and only writes a byte to a pipe (async-signal-safe), so a
/// signal sent as soon as the banner appears is never lost. A reader thread turns the first byte
/// into the end of ``wait()``, and the second into an exit at once (130).
final class StopSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var arrived = false
    private var waiter: CheckedContinuation<Void, Never>?

    fileprivate init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        stopSignalPipe = ends[1]
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                var byte: UInt8 = 1
                _ = write(stopSignalPipe, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let reader = ends[0]
        Thread.detachNewThread { [self] in
            var byte: UInt8 = 0
            var seen = 0
            while true {
                let count = read(reader, &byte, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                seen += 1
                if seen > 1 { _exit(130) }
                received()
            }
        }
    }

    private func received() {
        let resume: CheckedContinuation<Void, Never>? = lock.withLock {
            arrived = true
            defer { waiter = nil }
            return waiter
        }
        FileHandle.standardError.write(Data("stopping (press Ctrl-C again to quit at once)\n".utf8))
        resume?.resume()
    }

    /// Returns once the first signal has arrived (at once when it already has).
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if arrived { return true }
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// Logs to stderr, one line per event.
enum ServerLog {
    static let standardError: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data(("tapedeck: " + message + "\n").utf8))
    }
}
