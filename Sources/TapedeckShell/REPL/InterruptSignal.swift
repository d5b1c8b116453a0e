#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Ctrl-C without dying: a `SIGINT` handler installed with `sigaction` and no `SA_RESTART`,
/// so a blocking `readline()` returns and the REPL sees the flag; during a request the REPL
/// polls the flag and cancels the request's task.
///
/// A resized terminal (`SIGWINCH`) is caught the same way: the read returns, the line editor
/// learns the new width (``consumeResize()``) and reads on.
public enum InterruptSignal {
    private static let pending = Atomic<Bool>(false)
    private static let resized = Atomic<Bool>(false)
    private static let readingThread = Atomic<UInt>(0)

    /// Installs the handlers (idempotent).
    public static func install() {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { signal in InterruptSignal.handle(signal) }
        #else
        action.__sigaction_u.__sa_handler = { signal in InterruptSignal.handle(signal) }
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        sigaction(SIGWINCH, &action, nil)
        // A resize matters only while a line is read: elsewhere (a request, output being
        // written) it waits, blocked, and threads started from here on inherit the block, so it
        // interrupts no other system call. ``markReadingThread()`` unblocks it for the read.
        var resize = sigset_t()
        sigemptyset(&resize)
        sigaddset(&resize, SIGWINCH)
        pthread_sigmask(SIG_BLOCK, &resize, nil)
    }

    /// Marks the calling thread as the one blocked reading the terminal. The kernel may deliver
    /// `SIGINT` to any thread (and main-actor code may run on different threads over time), so
    /// the handler forwards the signal to this one, whose blocking `read` must be interrupted.
    /// Dispatch worker threads block signals, so `SIGINT` is unblocked here; returns the
    /// previous mask for ``unmarkReadingThread(restoring:)``.
    public static func markReadingThread() -> sigset_t {
        readingThread.store(UInt(pthread_self()), ordering: .relaxed)
        var set = sigset_t(), previous = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGWINCH)
        pthread_sigmask(SIG_UNBLOCK, &set, &previous)
        return previous
    }

    /// Restores the reading thread's signal mask.
    public static func unmarkReadingThread(restoring previous: sigset_t) {
        readingThread.store(0, ordering: .relaxed)
        var mask = previous
        pthread_sigmask(SIG_SETMASK, &mask, nil)
    }

    private static func handle(_ signal: Int32) {
        if signal == SIGWINCH {
            resized.store(true, ordering: .relaxed)
        } else {
            pending.store(true, ordering: .relaxed)
        }
        let reader = readingThread.load(ordering: .relaxed)
        if reader != 0, UInt(pthread_self()) != reader {
            pthread_kill(pthread_t(reader), signal)
        }
    }

    /// Whether the terminal was resized since the last call; clears the flag.
    public static func consumeResize() -> Bool {
        resized.exchange(false, ordering: .relaxed)
    }

    /// Whether Ctrl-C was pressed and not yet consumed.
    public static var isPending: Bool { pending.load(ordering: .relaxed) }

    /// Whether Ctrl-C was pressed since the last call; clears the flag.
    public static func consume() -> Bool {
        pending.exchange(false, ordering: .relaxed)
    }
}
