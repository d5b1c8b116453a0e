import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One folder for this test process's temporary files, removed when the process exits, so
/// helpers that hand out a cassette path need no cleanup at every call site.
public enum TestScratch {
    /// `$TMPDIR/tapedeck-tests-<pid>`, created on first use.
    public static let root: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()

    /// A fresh, not yet created path under root named `prefix-UUID`.
    public static func path(_ prefix: String) -> URL {
        root.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// A fresh folder under root named `prefix-UUID`, already created (with root), for tests
    /// that write several files; it goes when root does, so a `defer` to remove it is optional.
    public static func directory(_ prefix: String) throws -> URL {
        let url = path(prefix)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Counts the folders `shortDirectory` has handed out in this process.
    private static let shortCount = Mutex(0)

    /// A fresh folder under root with a short name, `prefix-N` (N counts up in this process),
    /// already created: for paths with a length limit a UUID would push them over, such as a
    /// Unix socket's (108 bytes on Linux, 104 on Darwin) inside the folder.
    public static func shortDirectory(_ prefix: String) throws -> URL {
        var url: URL
        repeat {
            let number = shortCount.withLock { count -> Int in
                count += 1
                return count
            }
            url = root.appendingPathComponent("\(prefix)-\(number)")
        } while FileManager.default.fileExists(atPath: url.path)  // left by an earlier process with this pid
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
