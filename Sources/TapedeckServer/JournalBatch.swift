import NIOCore
import NIOPosix
import Tapedeck

/// The whole answers a recording lane got in one turn of an event loop, journaled together
/// when the turn's work is done: one turn of the cassette's lock, one `flock` and one `write`
/// for all of them, where each answer alone took its own, and the loops waited for each
/// other's. Each answer goes to its client only once its record is written, as when it is
/// journaled alone, so `kill -9` loses no answer a client saw.
///
/// Each event loop thread has its own batch; it is used only on that thread. A loop shut down
/// before its turn ends drops the batch with its tasks: its answers are never given, as none of
/// its connections is left open to take them.
final class JournalBatch {
    /// One answer waiting for its record to be written.
    private struct Waiting {
        var interaction: StorableInteraction
        var written: (Result<Void, CassetteError>) -> Void
    }

    private var waiting: [Waiting] = []
    /// Each thread's batch: a thread reads and changes only its own.
    nonisolated(unsafe) private static let perThread = ThreadSpecificVariable<JournalBatch>()

    /// Journals `interaction` into its recorder's cassette at the end of this turn of `loop`, the
    /// loop the caller runs on, then calls `written` there with how it went.
    static func record(_ interaction: StorableInteraction, on loop: any EventLoop,
                       then written: @escaping (Result<Void, CassetteError>) -> Void) {
        loop.assertInEventLoop()
        let batch: JournalBatch
        if let existing = perThread.currentValue {
            batch = existing
        } else {
            batch = JournalBatch()
            perThread.currentValue = batch
        }
        if batch.waiting.isEmpty {
            // Run after the events of this turn, so every answer they brought joins the batch.
            loop.assumeIsolated().execute { batch.writeAll() }
        }
        batch.waiting.append(Waiting(interaction: interaction, written: written))
    }

    /// Journals what waits, a write per cassette, and tells each answer how it went.
    private func writeAll() {
        var rest = waiting
        waiting = []
        while let recorder = rest.first?.interaction.recorder {
            let mine = rest.filter { $0.interaction.recorder === recorder }
            rest.removeAll { $0.interaction.recorder === recorder }
            let result: Result<Void, CassetteError>
            do {
                try recorder.record(stored: mine.map(\.interaction))
                result = .success(())
            } catch {
                result = .failure(error)
            }
            for each in mine { each.written(result) }
        }
    }
}
