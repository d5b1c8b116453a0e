import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording session's cassette on disk: each recorded interaction is appended to a journal
/// beside the cassette (one `write`, the same cost for the 10,000th interaction as for the
/// first) and the journal is merged into the cassette, atomically, on ``flush()``, when the
/// store is released, and when the process exits.
///
/// ```swift
/// let store = try CassetteStore(url: URL(fileURLWithPath: "Sessions/api.cassette.json"))
/// try store.append(interaction)   // api.cassette.json.journal grows by one record
/// try store.flush()               // api.cassette.json holds it; the journal is gone
/// ```
///
/// `kill -9` at any instant loses at most the interaction being appended and never leaves a
/// torn cassette: the next open (any ``Cassette/load(from:)``) merges what the journal holds
/// and finishes or clears an interrupted merge. Sessions in this and other processes may
/// record into one cassette at once and every interaction is kept: appends and merges take
/// turns through a `flock` on the directory, and a merge reads the file and the journal
/// afresh. ``RecordingTransport`` records through one; the REPL, `tapedeck run` and
/// `URLSession.recording` all do.
final class CassetteStore: Sendable {
    /// How interactions reach the disk.
    struct Options: Sendable, Hashable {
        /// Whether each interaction is journaled as it is appended (else held in memory until ``CassetteStore/flush()``).
        var journalEachInteraction: Bool
        /// Whether each journal write is followed by `fsync`, so a record survives a power cut,
        /// not only a killed process (which it survives without).
        var syncEachInteraction: Bool

        /// Creates options; the defaults journal each interaction without `fsync`.
        init(journalEachInteraction: Bool = true, syncEachInteraction: Bool = false) {
            self.journalEachInteraction = journalEachInteraction
            self.syncEachInteraction = syncEachInteraction
        }
    }

    private struct State {
        /// The cassette as this session knows it: what it opened (nothing, when replacing) plus
        /// what it appended; nil once interactions are journaled (the journal holds them, not
        /// memory) or merged, and ``CassetteStore/cassette`` reads the file and journal when asked.
        var cassette: Cassette?
        /// How many interactions the cassette holds.
        var count: Int
        var appended = 0
        /// Appended but not journaled yet (``Options/journalEachInteraction`` off).
        var pending: [Interaction] = []
        /// This session journaled records that it has not merged since.
        var unmerged = false
        var lock: DirectoryLock?
        var journal: Int32 = -1
        /// The directory's change stamp when `journal` was last found at the journal's path.
        var directoryStamp: DirectoryLock.Stamp?
        /// The file this session replaces, until the journal says so.
        var replaces: CassetteFileStamp?
        /// The file as this session last decoded or wrote it: a merge splices bytes only into that file.
        var trusted: CassetteFileStamp?
        /// Streams begun and not ended or dropped: their head and chunks are in the journal.
        var openStreams = 0
    }

    /// The cassette file.
    let url: URL
    /// The journal's path beside it, named once: building it through `URL` costs more than
    /// appending a record.
    private let journalPath: String
    /// The options in effect.
    let options: Options
    /// What the file held when the store opened it (after merging a journal a killed session
    /// left); nil when there was no file.
    let opened: Cassette?
    private let metadata: [String: String]
    private let finishing: CassetteFinishing?
    /// Keeps the replaced file's inode from being reused while its stamp is in the journal.
    private let replaced: HeldCassetteFile?
    private let state: Mutex<State>

    /// `url`, or the file it links to when it is a symbolic link (followed to its end).
    static func linkedFile(_ url: URL) -> URL {
        var info = stat()
        guard lstat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return url }
        return url.resolvingSymlinksInPath()
    }

    /// Opens the cassette at `url`, merging what a killed session left beside it.
    ///
    /// With `replacing` (record mode `all`), the interactions the file holds now are dropped
    /// by the first merge after this session's first append; interactions other sessions
    /// merge in the meantime are kept. `metadata` is merged into the cassette's. `finishing`
    /// rewrites the merged cassette before each merge this store makes writes it.
    init(url: URL, replacing: Bool = false, metadata: [String: String] = [:], options: Options = Options(),
                finishing: CassetteFinishing? = nil) throws(CassetteError) {
        // A cassette reached through a link is the file it links to: that file is written (and
        // its folder locked), not the link replaced by a file of its own.
        let url = CassetteStore.linkedFile(url)
        self.url = url
        self.journalPath = CassetteJournal.url(for: url).path
        self.options = options
        self.metadata = metadata
        self.finishing = finishing
        let lock = DirectoryLock(directoryOf: url)
        var opened: Cassette?
        var replaced: HeldCassetteFile?
        if let lock {
            (opened, replaced) = try lock.withLock { () throws(CassetteError) in
                let cassette = try CassetteMerge.recover(url)
                return (cassette, replacing ? HeldCassetteFile(url) : nil)
            }
        }
        self.opened = opened
        self.replaced = replaced
        var start = (replacing ? nil : opened) ?? Cassette()
        start.metadata.merge(metadata) { _, new in new }
        state = Mutex(State(cassette: start, count: start.interactions.count, lock: lock, replaces: replaced?.stamp,
                            trusted: CassetteFileStamp.current(url)))
        OpenCassetteStores.register(self)
    }

    /// The cassette as this session knows it: what it opened plus what it appended, or, once
    /// it journaled, the file with the journal merged in as the next ``flush()`` would write it
    /// (other sessions' interactions included), read when asked; an empty cassette when the
    /// file cannot be read.
    var cassette: Cassette {
        state.withLock { state in
            if let known = state.cassette { return known }
            let read = { () throws(CassetteError) -> Cassette in try CassetteMerge.peek(self.url, finishing: self.finishing) }
            var cassette: Cassette
            do {
                cassette = try state.lock.map { lock throws(CassetteError) in try lock.withLock(shared: true, read) } ?? read()
            } catch {
                cassette = Cassette(metadata: metadata)
            }
            // Appended but not journaled yet (``Options/journalEachInteraction`` off).
            cassette.interactions += state.pending
            return cassette
        }
    }

    /// How many interactions this store appended.
    var appendedCount: Int { state.withLock { $0.appended } }

    /// How many interactions ``cassette`` holds.
    var count: Int { state.withLock { $0.count } }

    /// Appends `interaction` to the journal (one record, one `write`), creating the directory if needed.
    func append(_ interaction: Interaction, stream: String? = nil) throws(CassetteError) {
        // Encoded before the lock: appends from other threads wait only for each other's write.
        var record: Data?
        if let stream {
            // A stream's end replaces its head and chunks in the journal.
            record = CassetteJournal.record(interaction, metadata: metadata.merging([CassetteJournal.streamKey: stream]) { $1 })
        } else if options.journalEachInteraction {
            record = CassetteJournal.record(interaction, metadata: metadata)
        }
        try state.withLock { (state: inout State) throws(CassetteError) in
            if let record {
                try journal(record, &state)
            } else {
                state.pending.append(interaction)
            }
            if stream != nil { state.openStreams = max(0, state.openStreams - 1) }
            state.cassette?.interactions.append(interaction)
            state.count += 1
            state.appended += 1
        }
    }

    /// Appends `interactions` (whole answers, not streams) in order, journaled in one `write`:
    /// for a caller that gathered several at once, one turn of the lock and of the directory's
    /// `flock` for all of them. When the journal cannot be written it throws and counts none of
    /// them (a write cut short may still have left some in the journal, as with one).
    func append(_ interactions: [Interaction]) throws(CassetteError) {
        guard interactions.count > 1 else {
            if let interaction = interactions.first { try append(interaction) }
            return
        }
        var records: Data?
        if options.journalEachInteraction {
            var joined = Data()
            for interaction in interactions { joined.append(CassetteJournal.record(interaction, metadata: metadata)) }
            records = joined
        }
        try state.withLock { (state: inout State) throws(CassetteError) in
            if let records {
                try journal(records, &state)
            } else {
                state.pending.append(contentsOf: interactions)
            }
            state.cassette?.interactions.append(contentsOf: interactions)
            state.count += interactions.count
            state.appended += interactions.count
        }
    }

    /// Journals the head of a stream that has begun (`interaction`, its body empty so far) under
    /// `stream`, so that a process killed mid-stream leaves it, with the chunks journaled after it,
    /// in the cassette; ``append(_:stream:)`` with the same name records its end.
    func beginStream(_ interaction: Interaction, stream: String) throws(CassetteError) {
        let record = CassetteJournal.record(interaction, metadata: metadata.merging([CassetteJournal.streamKey: stream]) { $1 })
        try state.withLock { (state: inout State) throws(CassetteError) in
            try journal(record, &state)
            state.openStreams += 1
        }
    }

    /// Journals that `stream` (``beginStream(_:stream:)``) broke off: its head and chunks are not kept.
    func dropStream(_ stream: String) throws(CassetteError) {
        let record = CassetteJournal.dropRecord(stream: stream)
        try state.withLock { (state: inout State) throws(CassetteError) in
            try journal(record, &state)
            state.openStreams = max(0, state.openStreams - 1)
        }
    }

    /// Merges at once, scrubbing what ``finishing`` knows, when the journal or the file may
    /// hold one of `secrets` as written (a token sent in a path before a later request showed
    /// it is a credential): a process killed later then leaves it nowhere on disk. Not while a
    /// stream is open: its records are merged when it ends.
    func scrubAtOnce(_ secrets: [String]) throws(CassetteError) {
        let due: Bool = state.withLock { state in
            guard state.openStreams == 0, state.unmerged || !state.pending.isEmpty || FileManager.default.fileExists(atPath: url.path) else { return false }
            return [URL(fileURLWithPath: journalPath), url].contains { file in
                guard let data = FileManager.default.contents(atPath: file.path) else { return false }
                let bytes = [UInt8](data)
                return secrets.contains { ByteSearch.contains(Array($0.utf8), in: bytes, 0..<bytes.count) }
            }
        }
        if due { try flush() }
    }

    /// Journals one more chunk of `stream` (``beginStream(_:stream:)``).
    func appendChunk(_ chunk: BodyChunk, stream: String) throws(CassetteError) {
        let record = CassetteJournal.chunkRecord(chunk, stream: stream)
        try state.withLock { (state: inout State) throws(CassetteError) in
            try journal(record, &state)
        }
    }

    /// Merges the journal into the cassette file when this session journaled anything since
    /// the last merge. Interactions other sessions journaled or merged meanwhile are kept.
    func flush() throws(CassetteError) {
        try state.withLock { (state: inout State) throws(CassetteError) in
            if !state.pending.isEmpty {
                try journal(state.pending, &state)
                state.pending = []
            }
            guard state.unmerged, let lock = state.lock else { return }
            let trusted = state.trusted
            let merged = try lock.withLock { () throws(CassetteError) in
                try CassetteMerge.mergeCounting(url, finishing: finishing, trusted: trusted)
            }
            if let merged {
                state.count = merged.count
                state.trusted = merged.stamp
                state.cassette = nil
            }
            state.unmerged = false
        }
    }

    /// Writes records for `interactions` (after the replace record, the first time) under the lock.
    private func journal(_ interactions: [Interaction], _ state: inout State) throws(CassetteError) {
        var data = Data()
        for interaction in interactions { data.append(CassetteJournal.record(interaction, metadata: metadata)) }
        try journal(data, &state)
    }

    /// Appends `records` (framed journal records) to the journal, after the replace record when
    /// one is still due.
    private func journal(_ records: Data, _ state: inout State) throws(CassetteError) {
        var data = records
        if let stamp = state.replaces { data = CassetteJournal.replacesRecord(stamp, holding: opened?.interactions) + records }
        let lock: DirectoryLock
        if let existing = state.lock {
            lock = existing
        } else {
            lock = try DirectoryLock.creatingDirectory(of: url)
            state.lock = lock
        }
        try lock.withLock { () throws(CassetteError) in
            try openJournal(&state, lock: lock)
            guard CassetteMerge.writeAll(data, to: state.journal),
                  !options.syncEachInteraction || fsync(state.journal) == 0 else {
                throw .writeFailed(path: journalPath, reason: String(cString: strerror(errno)))
            }
        }
        state.replaces = nil
        state.unmerged = true
        // The journal holds what was appended; memory need not grow with every interaction.
        state.cassette = nil
    }

    /// Keeps `state.journal` open on the journal at its path: a merge (in any process) renames
    /// the journal away, and the next record starts a new one.
    ///
    /// A rename or a removal changes the directory, so while the directory's change stamp is
    /// the one seen when the journal was last found at its path, and the journal is still
    /// linked, it is still there: two `fstat`s on open descriptors instead of a look-up of the
    /// path, which costs several times more per record.
    private func openJournal(_ state: inout State, lock: DirectoryLock) throws(CassetteError) {
        let path = journalPath
        if state.journal >= 0 {
            var held = stat()
            guard fstat(state.journal, &held) == 0 else { return try reopenJournal(&state, lock: lock, path: path) }
            if held.st_nlink > 0, let seen = state.directoryStamp, lock.stamp() == seen { return }
            var named = stat()
            if stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                state.directoryStamp = lock.stamp()
                return
            }
        }
        try reopenJournal(&state, lock: lock, path: path)
    }

    /// Opens the journal at `path` anew (creating it), closing the one held.
    private func reopenJournal(_ state: inout State, lock: DirectoryLock, path: String) throws(CassetteError) {
        if state.journal >= 0 { close(state.journal) }
        state.journal = -1
        // Never through a link someone left in the journal's place.
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, FileAccess.newFileMode)
        guard descriptor >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
        state.journal = descriptor
        // Read after the create, which changes the directory itself.
        state.directoryStamp = lock.stamp()
    }

    /// Flushes what is left and closes the journal; when that fails the journal stays on disk
    /// and the next open merges it, so nothing recorded is lost.
    func release() {
        do {
            try flush()
        } catch {
            // Nobody is left to tell (release or process exit): the journal keeps every record
            // and the next open of the cassette merges it.
        }
        state.withLock { state in
            if state.journal >= 0 { close(state.journal) }
            state.journal = -1
        }
    }

    deinit {
        OpenCassetteStores.unregister(self)
        release()
    }
}
