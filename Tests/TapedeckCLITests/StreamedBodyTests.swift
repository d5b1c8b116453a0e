import Foundation
import TapedeckTestSupport
import Testing

@Suite("Bodies of any size at the command line", .enabled(if: HostileServerProcess.available, "needs python3, script(1) and the built binary"))
struct StreamedBodyTests {
    static let size = 8 * 1024 * 1024

    @Test("piped, a body larger than --max-body-size streams through byte for byte")
    func piped() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let result = try CLI.run([server.url("/big?bytes=\(Self.size)"), "--max-body-size", "1M"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdoutData.count == Self.size && result.stdoutData.allSatisfy { $0 == UInt8(ascii: "x") })
    }

    @Test("--download writes the body to the file as it arrives and says where it went")
    func download() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let directory = try TestScratch.directory("tapedeck-download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("body.bin")
        let result = try CLI.run([server.url("/big?bytes=\(Self.size)"), "--download", file.path, "--max-body-size", "1M"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("saved 8.0 MB to \(file.path)"))
        #expect(try Data(contentsOf: file).count == Self.size)
        let missing = try CLI.run([server.url("/big?bytes=10"), "--download", directory.appendingPathComponent("no/such/dir/f").path])
        #expect(missing.status == 1 && missing.stderr.contains("cannot create the download file"))
    }

    @Test("on a terminal, a body over --max-body-size fails with the limit instead of filling memory")
    func terminalLimit() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let binary = try #require(CLI.binary).path
        let tty = try CLI.run(["-qec", "\(binary) \(server.url("/big?bytes=\(Self.size)")) --max-body-size 1M", "/dev/null"],
                              environment: ["NO_COLOR": "1"], executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(tty.status == 3)
        #expect(tty.stdout.contains("is larger than the limit of 1 MiB; raise it with --max-body-size SIZE"), "\(tty.stdout)")
    }
}
