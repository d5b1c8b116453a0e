import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Which version of a cassette file is on disk (inode, modification time, size), so a recorder
/// can tell whether another session wrote the file since it last looked. Every atomic write
/// renames a new file into place, so the inode changes with each write, as long as the old
/// inode cannot be recycled: ``HeldCassetteFile`` keeps it open for that reason.
struct CassetteFileStamp: Hashable {
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        size = Int64(info.st_size)
    }

    /// The stamp of the file at `url`, or nil when there is none.
    static func current(_ url: URL) -> CassetteFileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return CassetteFileStamp(info)
    }

    /// Runs `body` holding an exclusive `flock` on the cassette's directory (made first if
    /// needed, so every session locks the same one), so sessions in this and other processes
    /// read-merge-write the file one at a time.
    static func withDirectoryLock<T>(for url: URL, _ body: () throws(CassetteError) -> T) throws(CassetteError) -> T {
        do {
            try FileAccess.makeParentDirectory(of: url)
        } catch {
            throw .writeFailed(path: url.path, reason: error.reason)
        }
        let descriptor = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return try body() }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}

/// The version of the cassette file a session last read or wrote, held open so its inode
/// number is not given to the next file written there (which would make another session's
/// write look like this one's).
final class HeldCassetteFile: Sendable {
    /// The stamp of the held file.
    let stamp: CassetteFileStamp
    private let descriptor: Int32

    /// Opens the file at `url` now; nil when there is none.
    init?(_ url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        stamp = CassetteFileStamp(info)
    }

    /// Whether the file at `url` is still the held one (nobody replaced or rewrote it).
    func isCurrent(at url: URL) -> Bool {
        CassetteFileStamp.current(url) == stamp
    }

    deinit { close(descriptor) }
}
