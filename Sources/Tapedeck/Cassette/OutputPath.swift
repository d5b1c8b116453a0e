import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one rule for every file Tapedeck writes (cassettes, `convert` output, JUnit and TAP
/// reports, saved scripts): missing parent directories are created, and a path that can never
/// be written (a directory, a FIFO, a file where a directory must go, a read-only directory)
/// is refused before any work starts, with the reason.
///
/// ```swift
/// if let problem = OutputPath.problem(with: URL(fileURLWithPath: "reports/junit.xml")) {
///     print("--report-junit reports/junit.xml: \(problem)")
/// }
/// ```
package enum OutputPath {
    /// Why a file cannot be written at `url`, or nil when it can (its directory may not exist yet).
    package static func problem(with url: URL) -> String? {
        if let kind = FileKind.of(url.path), kind != .regular {
            return kind == .directory ? "it is a directory; name a file inside it" : "it is \(kind.description), not a regular file; name a regular file"
        }
        var ancestor = url.deletingLastPathComponent()
        while FileKind.of(ancestor.path) == nil, ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        guard FileKind.of(ancestor.path) == .directory else {
            return "\(ancestor.path) is not a directory, so the file cannot be made there; choose another path"
        }
        guard access(ancestor.path, W_OK | X_OK) == 0 else {
            return "the directory \(ancestor.path) is not writable (permission denied); choose another path"
        }
        // Permission bits say nothing of a file system that takes no new files (/proc, /sys, a
        // read-only mount) or of a superuser: a file of a name no one uses is made and removed.
        guard FileKind.of(url.path) == nil else { return nil }
        let probe = ancestor.appendingPathComponent(".tapedeck-write-check-\(getpid())-\(UUID().uuidString)")
        let made = open(probe.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard made >= 0 else {
            return "files cannot be made in \(ancestor.path) (\(String(cString: strerror(errno)))); choose another path"
        }
        close(made)
        unlink(probe.path)
        return nil
    }

    /// Writes `data` atomically, creating missing parent directories; the error's reason
    /// leaves the path to the caller. The file gets `mode` when given (a secret's file is
    /// 0600 whatever was there before), else keeps an existing file's.
    package static func write(_ data: Data, to url: URL, mode: mode_t? = nil) throws(OutputPath.Failure) {
        do {
            try FileAccess.writeAtomically(data, to: url, mode: mode)
        } catch {
            throw Failure(reason: error.reason)
        }
    }

    /// Why a write failed, in words (`Permission denied`, `it is a directory; …`).
    package struct Failure: Error, Sendable {
        /// The reason, without the path.
        package var reason: String
    }
}

/// What kind of file is at a path (without following a final symlink's target type).
enum FileKind: Equatable, CustomStringConvertible {
    case regular, directory, fifo, socket, device, other

    /// The kind at `path` (following symlinks), or nil when nothing is there.
    static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFIFO: return .fifo
        case S_IFSOCK: return .socket
        case S_IFCHR, S_IFBLK: return .device
        default: return .other
        }
    }

    var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .fifo: "a FIFO (named pipe)"
        case .socket: "a socket"
        case .device: "a device"
        case .other: "a special file"
        }
    }
}
