import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every ``CassetteStore`` still open in this process, so that their journals are merged into
/// their cassettes when the process exits normally (`exit`, or returning from `main`, as a
/// test runner does), even for sessions nobody flushed or released, such as those
/// `URLSession.recording` makes. A process killed outright leaves its journal for the next open.
///
/// The one process-wide table this needs is here, explicit and behind a `Mutex`.
enum OpenCassetteStores {
    private struct Entry: Sendable {
        weak var store: CassetteStore?
    }

    private struct Table: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var exitHandlerInstalled = false
    }

    private static let table = Mutex(Table())

    static func register(_ store: CassetteStore) {
        let install = table.withLock { table in
            table.entries[ObjectIdentifier(store)] = Entry(store: store)
            defer { table.exitHandlerInstalled = true }
            return !table.exitHandlerInstalled
        }
        if install { atexit { OpenCassetteStores.flushAll() } }
    }

    static func unregister(_ store: CassetteStore) {
        table.withLock { _ = $0.entries.removeValue(forKey: ObjectIdentifier(store)) }
    }

    /// Merges every open store's journal; a store that cannot be merged keeps its journal.
    static func flushAll() {
        let stores = table.withLock { table in table.entries.values.compactMap(\.store) }
        for store in stores { store.release() }
    }
}
