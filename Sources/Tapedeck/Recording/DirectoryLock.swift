import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `flock` on a cassette's directory: every session, in this process or another, that
/// appends to a cassette's journal, merges it or reads the cassette takes it, so they take
/// turns. Writers take it exclusively, readers shared.
///
/// The descriptor stays open for the lock's life (one `open` per session, not per append).
/// `flock` excludes other open descriptions of the directory, including other sessions in
/// this process, but not a second caller on this same descriptor: callers serialise their own
/// threads (``CassetteStore`` does so with a `Mutex`).
final class DirectoryLock: Sendable {
    /// The directory's descriptor, or -1 when it cannot be opened (then nothing is locked).
    private let descriptor: Int32

    /// Opens the directory `url` goes in; nil when that directory does not exist.
    init?(directoryOf url: URL) {
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    /// Opens the directory `url` goes in, creating it first when it is missing.
    static func creatingDirectory(of url: URL) throws(CassetteError) -> DirectoryLock {
        do {
            try FileAccess.makeParentDirectory(of: url)
        } catch {
            throw .writeFailed(path: url.path, reason: error.reason)
        }
        guard let lock = DirectoryLock(directoryOf: url) else {
            throw .writeFailed(path: url.path, reason: "its directory cannot be opened (\(String(cString: strerror(errno))))")
        }
        return lock
    }

    /// Runs `body` holding the lock (shared when `shared`), released however `body` ends.
    func withLock<T>(shared: Bool = false, _ body: () throws(CassetteError) -> T) throws(CassetteError) -> T {
        // A file system without flock (some network mounts) answers with an error: run unlocked
        // there, as the cassette was written before locking existed.
        var locked = flock(descriptor, shared ? LOCK_SH : LOCK_EX) == 0
        while !locked, errno == EINTR { locked = flock(descriptor, shared ? LOCK_SH : LOCK_EX) == 0 }
        defer { if locked { flock(descriptor, LOCK_UN) } }
        return try body()
    }

    /// When the directory's entries last changed (a file created, renamed or removed), to the
    /// nanosecond: its modification and status-change times. Nil when it cannot be read.
    struct Stamp: Hashable, Sendable {
        var modified: timespec
        var changed: timespec

        static func == (a: Stamp, b: Stamp) -> Bool {
            a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
                && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(modified.tv_sec)
            hasher.combine(modified.tv_nsec)
            hasher.combine(changed.tv_sec)
            hasher.combine(changed.tv_nsec)
        }
    }

    /// The directory's ``Stamp`` now; nil when it cannot be read.
    func stamp() -> Stamp? {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Stamp(modified: info.st_mtimespec, changed: info.st_ctimespec)
        #else
        return Stamp(modified: info.st_mtim, changed: info.st_ctim)
        #endif
    }

    /// Makes the directory's entries (renames, new files) durable.
    func sync() {
        fsync(descriptor)
    }

    deinit { close(descriptor) }
}
