import Foundation
import Testing
@testable import Tapedeck

@Suite("The one atomic write: private new files")
struct FileAccessTests {
    /// The process umask, read without changing it (Linux: /proc/self/status).
    static var umaskValue: mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
    }

    static func mode(_ url: URL) throws -> mode_t {
        var info = stat()
        try #require(stat(url.path, &info) == 0)
        return info.st_mode & 0o777
    }

    @Test("cassettes in every format are created 0600 (less if the umask is stricter); a replaced file keeps its mode")
    func privateCassettes() throws {
        let directory = TemporaryDirectory()
        let cassette = Cassette(interactions: [.make()])
        let expected = FileAccess.newFileMode & ~Self.umaskValue
        for name in ["a.cassette.json", "b.yaml", "c.har", "nested/d.json"] {
            let url = directory.file(name)
            try cassette.write(to: url)
            #expect(try Self.mode(url) == expected, "\(name)")
        }
        let shared = directory.file("shared.cassette.json")
        try cassette.write(to: shared)
        chmod(shared.path, 0o644)
        try cassette.write(to: shared)
        #expect(try Self.mode(shared) == 0o644, "the user's choice stays")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("a failed write names the reason and leaves no temporary file")
    func failedWrite() throws {
        let directory = TemporaryDirectory()
        let blocker = directory.file("file")
        try Data().write(to: blocker)
        #expect(throws: FileAccess.Failure.self) { try FileAccess.writeAtomically(Data("x".utf8), to: blocker.appendingPathComponent("c.json")) }
        let readOnly = directory.file("ro")
        try FileManager.default.createDirectory(at: readOnly, withIntermediateDirectories: true)
        chmod(readOnly.path, 0o500)
        defer { chmod(readOnly.path, 0o700) }
        if getuid() != 0 {
            do {
                try FileAccess.writeAtomically(Data("x".utf8), to: readOnly.appendingPathComponent("c.json"))
                Issue.record("writing into a read-only folder succeeded")
            } catch {
                #expect(error.reason == "Permission denied")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: readOnly.path).isEmpty)
    }
}
