import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file work behind a cassette and its journal, always done holding the exclusive
/// ``DirectoryLock``: merging the journal into the cassette, and finishing or clearing away
/// what a process killed mid-merge left.
///
/// A merge writes the whole cassette to one temporary file with a fixed name beside it
/// (`api.cassette.json.tmp`, so a killed merge can leave at most one, and the next merge or
/// open removes it), makes it durable, renames the journal to `api.cassette.json.journal.merged`,
/// renames the temporary file over the cassette and deletes the renamed journal. Whatever
/// instant a `kill -9` lands, ``recover(_:)`` finds one of three states and completes or undoes
/// it, so no interaction is written twice or lost and the cassette is never torn.
enum CassetteMerge {
    /// `api.cassette.json.tmp`: the next version of the cassette while it is written.
    static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".tmp")
    }

    /// `api.cassette.json.journal.merged`: a journal whose records are in the temporary file.
    static func mergedJournalURL(for url: URL) -> URL {
        CassetteJournal.url(for: url).appendingPathExtension("merged")
    }

    /// Whether anything beside the cassette needs ``recover(_:)``: a journal, or what a killed merge left.
    static func hasLeftovers(_ url: URL) -> Bool {
        [CassetteJournal.url(for: url), temporaryURL(for: url), mergedJournalURL(for: url)].contains { exists($0) }
    }

    /// The cassette at `url` with its journal merged in (``Cassette/load(from:)``): read under
    /// the shared lock, or merged first under the exclusive one when anything is beside it.
    static func read(_ url: URL, maximumFileSize: Int = Cassette.defaultMaximumFileSize,
                     limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        let load = { () throws(CassetteError) -> Cassette in
            try Cassette.loadFile(from: url, maximumFileSize: maximumFileSize, limits: limits)
        }
        guard let lock = DirectoryLock(directoryOf: url) else { return try load() }
        guard hasLeftovers(url) else { return try lock.withLock(shared: true, load) }
        return try lock.withLock { () throws(CassetteError) -> Cassette in
            if let cassette = try recover(url) { return cassette }
            return try load()
        }
    }

    /// Completes or clears a merge that was killed, then merges any journal; returns the
    /// cassette as the file now holds it, or nil when there is no file and nothing was journaled.
    static func recover(_ url: URL) throws(CassetteError) -> Cassette? {
        try finishKilledMerge(url)
        return try merge(url)
    }

    /// Completes or clears what a merge killed part-way left (see the type's summary), so the
    /// next merge starts from a whole cassette and its journal.
    private static func finishKilledMerge(_ url: URL) throws(CassetteError) {
        let temporary = temporaryURL(for: url), mergedJournal = mergedJournalURL(for: url)
        if exists(temporary) {
            if exists(mergedJournal) {
                // Killed between the two renames: the temporary file is complete and holds the journal.
                try move(temporary, to: url)
            } else {
                // Killed while writing it: the journal is still there, so the merge starts over.
                try delete(temporary)
            }
        }
        if exists(mergedJournal) { try delete(mergedJournal) }
    }

    /// Merges the journal into the cassette file (see the type's summary); returns the
    /// cassette as written, or as the file holds it when the journal had nothing.
    ///
    /// `finishing`, when given, rewrites the merged cassette before it is written (a recorder
    /// scrubs secrets it learned after an earlier interaction had already carried them).
    static func merge(_ url: URL, finishing: CassetteFinishing? = nil) throws(CassetteError) -> Cassette? {
        let file: Cassette? = exists(url) ? try Cassette.loadFile(from: url) : nil
        let journal = CassetteJournal.url(for: url)
        guard exists(journal) else { return file }
        let contents = try CassetteJournal.read(try bytes(of: journal), path: journal.path)
        guard !contents.records.isEmpty else {
            // Only a record cut short by a killed writer (writers hold the lock while writing).
            try delete(journal)
            return file
        }
        var merged = CassetteJournal.apply(contents.records, to: file ?? Cassette(), stamp: CassetteFileStamp.current(url))
        // A journal that left nothing (a stream dropped, a recording refused) makes no file: an
        // empty cassette would be replayed, and answer every request 404.
        if file == nil, merged.interactions.isEmpty {
            try delete(journal)
            return nil
        }
        if let finishing { merged = finishing.apply(merged, secrets: finishing.secrets()) }
        try commit(merged.encoded(as: CassetteFormat(for: url) ?? .native).data, to: url, journal: journal)
        return merged
    }

    /// Merges the journal as ``merge(_:finishing:)`` does, for a recording session that does not
    /// need the cassette back: a native cassette is spliced as bytes (``CassetteSplice``), without
    /// decoding what the file and the journal hold, when the file is still the one the session
    /// read or wrote last (`trusted`); a file changed since (edited, or merged by another
    /// process) is decoded, so what it holds is checked before anything is added to it.
    ///
    /// Returns how many interactions the file then holds (another session may have merged this
    /// one's records already) and its stamp; nil when there is no file.
    static func mergeCounting(_ url: URL, finishing: CassetteFinishing? = nil,
                              trusted: CassetteFileStamp? = nil) throws(CassetteError) -> (count: Int, stamp: CassetteFileStamp?)? {
        // A merge another process was killed in the middle of is finished first: its records
        // are in its temporary file, and a new one would be written over it.
        try finishKilledMerge(url)
        let journal = CassetteJournal.url(for: url)
        let native = (CassetteFormat(for: url) ?? .native) == .native
        let stamp = CassetteFileStamp.current(url)
        guard exists(journal) else {
            guard exists(url) else { return nil }
            let file = native && stamp != nil && stamp == trusted ? [UInt8](try bytes(of: url, maximumSize: Cassette.defaultMaximumFileSize)) : []
            if let parts = CassetteSplice.parts(of: file, range: 0..<file.count), !file.isEmpty { return (parts.count, stamp) }
            return (try Cassette.loadFile(from: url).interactions.count, stamp)
        }
        if native, stamp == nil || stamp == trusted {
            let records = [UInt8](try bytes(of: journal))
            let file = stamp == nil ? nil : [UInt8](try bytes(of: url, maximumSize: Cassette.defaultMaximumFileSize))
            if !CassetteJournal.frames(records).complete.isEmpty,
               let merged = CassetteSplice.merge(file: file, journal: records, stamp: stamp, finishing: finishing), file != nil || merged.count > 0 {
                try commit(merged.data, to: url, journal: journal)
                return (merged.count, CassetteFileStamp.current(url))
            }
        }
        guard let merged = try merge(url, finishing: finishing) else { return nil }
        return (merged.interactions.count, CassetteFileStamp.current(url))
    }

    /// The cassette as ``merge(_:finishing:)`` would write it, without writing anything.
    static func peek(_ url: URL, finishing: CassetteFinishing?) throws(CassetteError) -> Cassette {
        let file = exists(url) ? try Cassette.loadFile(from: url) : Cassette()
        let journal = CassetteJournal.url(for: url)
        guard exists(journal) else { return file }
        let contents = try CassetteJournal.read(try bytes(of: journal), path: journal.path)
        let merged = CassetteJournal.apply(contents.records, to: file, stamp: CassetteFileStamp.current(url))
        return finishing.map { $0.apply(merged, secrets: $0.secrets()) } ?? merged
    }

    /// The bytes of `url`, a file beside the cassette or the cassette itself.
    private static func bytes(of url: URL, maximumSize: Int = .max) throws(CassetteError) -> Data {
        do {
            return try FileAccess.read(url, maximumSize: maximumSize)
        } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
    }

    private static func commit(_ data: Data, to url: URL, journal: URL) throws(CassetteError) {
        let temporary = temporaryURL(for: url)
        var info = stat()
        let permissions = stat(url.path, &info) == 0 ? mode_t(info.st_mode) & 0o7777 : nil
        // Made anew, never opened through a link someone left in its place.
        try delete(temporary)
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, FileAccess.newFileMode)
        guard descriptor >= 0 else { throw failure(temporary) }
        if let permissions { fchmod(descriptor, permissions) }
        let written = writeAll(data, to: descriptor) && fsync(descriptor) == 0
        let reason = String(cString: strerror(errno))
        close(descriptor)
        guard written else {
            unlink(temporary.path)
            throw .writeFailed(path: url.path, reason: reason)
        }
        try move(journal, to: mergedJournalURL(for: url))
        try move(temporary, to: url)
        try delete(mergedJournalURL(for: url))
        DirectoryLock(directoryOf: url)?.sync()
    }

    /// Writes all of `data` at the descriptor's offset, retrying short and interrupted writes.
    static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let count = write(descriptor, base + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
    }

    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return lstat(url.path, &info) == 0
    }

    private static func move(_ source: URL, to destination: URL) throws(CassetteError) {
        guard rename(source.path, destination.path) == 0 else { throw failure(destination) }
    }

    private static func delete(_ url: URL) throws(CassetteError) {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw failure(url) }
    }

    private static func failure(_ url: URL) -> CassetteError {
        .writeFailed(path: url.path, reason: String(cString: strerror(errno)))
    }
}
