import Foundation

/// Whole-file reads and the one atomic write every file Tapedeck creates goes through
/// (cassettes, exports, reports, saved scripts, usage records, REPL history), with failure
/// reasons people can act on: corelibs says "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)" where the cause is "Not a directory".
///
/// New files are created with mode 0600 (less if the umask is stricter): cassettes, reports
/// and scripts can hold what a server said, and git does not record read permissions, so a
/// committed cassette is still readable by everyone who clones it. A file that already exists
/// keeps its mode.
package enum FileAccess {
    /// Why a read or write failed, in words (`no such file`, `Is a directory`, …).
    package struct Failure: Error {
        /// The reason, without the path (callers name the file themselves).
        package var reason: String
    }

    /// The mode new files get, before the umask.
    package static let newFileMode: mode_t = 0o600

    /// Reads the whole file; a file larger than `maximumSize` bytes fails before it is read.
    package static func read(_ url: URL, maximumSize: Int = .max) throws(Failure) -> Data {
        try checkReadable(url, maximumSize: maximumSize)
        do {
            return try Data(contentsOf: url)
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { throw Failure(reason: "no such file") }
            throw Failure(reason: reason(error))
        }
    }

    /// The size of the file at `url`, when it is a regular file that can be read.
    static func size(of url: URL) -> Int? {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// Opens the file for reading a piece at a time (``JSONFileWindow``), with ``read(_:maximumSize:)``'s
    /// checks; the caller closes the descriptor.
    static func openForReading(_ url: URL, maximumSize: Int = .max) throws(Failure) -> Int32 {
        try checkReadable(url, maximumSize: maximumSize)
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Failure(reason: errno == ENOENT ? "no such file" : String(cString: strerror(errno)))
        }
        return descriptor
    }

    /// Refuses what is not a regular file, or is larger than `maximumSize`, with the fix.
    private static func checkReadable(_ url: URL, maximumSize: Int) throws(Failure) {
        switch FileKind.of(url.path) {
        case .directory?:
            throw Failure(reason: "it is a directory, not a cassette file; give the path of a file inside it")
        case let kind? where kind != .regular:
            // Reading a FIFO would wait for a writer (or fail as "Permission denied").
            throw Failure(reason: "it is \(kind), not a regular file; save what it carries to a file and give that file")
        default:
            break
        }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > maximumSize {
            throw Failure(reason: "it is \(ByteCount.describe(size)), larger than the \(ByteCount.describe(maximumSize)) "
                + "a cassette may be (maximumFileSize); split it, or load it with a larger maximumFileSize")
        }
    }

    /// Creates the parent directory if needed, then writes `data` to a temporary file (mode
    /// ``newFileMode``, or the mode of the file it replaces) and renames it over `url`: a crash
    /// or `kill -9` leaves the old file or the new one.
    package static func writeAtomically(_ data: Data, to url: URL, mode: mode_t? = nil) throws(Failure) {
        try makeParentDirectory(of: url)
        var existing = stat()
        let keepMode: mode_t? = mode ?? (stat(url.path, &existing) == 0 ? existing.st_mode & 0o7777 : nil)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, keepMode ?? newFileMode)
        guard descriptor >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        var failure: String?
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count, failure == nil {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0, errno != EINTR { failure = String(cString: strerror(errno)) }
                if written > 0 { offset += written }
            }
        }
        if failure == nil, let keepMode, fchmod(descriptor, keepMode) != 0 { failure = String(cString: strerror(errno)) }
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw Failure(reason: failure)
        }
    }

    /// Creates the directory `url` goes in, unless `url` itself is a directory or a file is in the way.
    static func makeParentDirectory(of url: URL) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Failure(reason: "it is a directory; name a file inside it")
        }
        // Foundation reports a file in the way of the directory as "File exists".
        var ancestor = url.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory), ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        if !isDirectory.boolValue {
            throw Failure(reason: "\(ancestor.path) is a file, so the directory cannot be made; choose another path")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Failure(reason: reason(error))
        }
    }

    /// The underlying POSIX reason (`Not a directory`, `Permission denied`, …) when Foundation
    /// wrapped one, else the error's own description.
    static func reason(_ error: any Error) -> String {
        let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
        if let posix { return String(cString: strerror(posix.code.rawValue)) }
        return error.localizedDescription
    }
}
