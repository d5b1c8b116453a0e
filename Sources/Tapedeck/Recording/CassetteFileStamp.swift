import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which version of a cassette file is on disk (inode, modification time, size). A session in
/// record mode `all` writes the stamp of the file it opened into the journal, and the merge
/// drops that file's interactions only if the file still has that stamp (nobody else merged
/// since). Every merge renames a new file into place, so the inode changes with each write, as
/// long as the old inode cannot be recycled: ``HeldCassetteFile`` keeps it open for that reason.
struct CassetteFileStamp: Hashable, Sendable {
    var inode: UInt64
    var seconds: Int
    var nanoseconds: Int
    var size: Int64

    init(_ info: stat) {
        inode = UInt64(info.st_ino)
        #if canImport(Darwin)
        seconds = info.st_mtimespec.tv_sec
        nanoseconds = info.st_mtimespec.tv_nsec
        #else
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
        #endif
        size = Int64(info.st_size)
    }

    /// The stamp of the file at `url`, or nil when there is none.
    static func current(_ url: URL) -> CassetteFileStamp? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return CassetteFileStamp(info)
    }

    /// `inode:seconds:nanoseconds:size`, as a journal records it.
    var text: String { "\(inode):\(seconds):\(nanoseconds):\(size)" }

    /// Reads ``text`` back; nil when it is not four numbers.
    init?(text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 4, let inode = UInt64(parts[0]), let seconds = Int(parts[1]),
              let nanoseconds = Int(parts[2]), let size = Int64(parts[3]) else { return nil }
        self.inode = inode
        self.seconds = seconds
        self.nanoseconds = nanoseconds
        self.size = size
    }
}

/// The version of the cassette file a session opened, held open so its inode number is not
/// given to the next file written there (which would make another session's merge look like
/// no change).
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

    deinit { close(descriptor) }
}
