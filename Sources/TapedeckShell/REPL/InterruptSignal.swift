#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Ctrl-C without dying: a `SIGINT` handler installed with `sigaction` and no `SA_RESTART`,
/// so a blocking `readline()` returns and the REPL sees the flag; during a request the REPL
/// polls the flag and cancels the request's task.
public enum InterruptSignal {
    private static let pending = Atomic<Bool>(false)

    /// Installs the handler (idempotent).
    public static func install() {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in InterruptSignal.pending.store(true, ordering: .relaxed) }
        #else
        action.__sigaction_u.__sa_handler = { _ in InterruptSignal.pending.store(true, ordering: .relaxed) }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
    }

    /// Whether Ctrl-C was pressed since the last call; clears the flag.
    public static func consume() -> Bool {
        pending.exchange(false, ordering: .relaxed)
    }
}
