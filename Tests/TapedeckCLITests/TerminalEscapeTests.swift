import Foundation
import Testing

@Suite("Hostile servers at the command line", .enabled(if: HostileServerProcess.available, "needs python3, script(1) and the built binary"))
struct TerminalEscapeTests {
    @Test("on a pseudo-terminal, escapes in headers and body are shown as \\x1b, never sent raw; piped, the body is byte-exact")
    func escapes() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let binary = try #require(CLI.binary).path
        // script(1) runs the binary on a pseudo-terminal, so it renders as on a user's screen.
        let tty = try CLI.run(["-qec", "\(binary) \(server.url("/escape"))", "/dev/null"], environment: ["NO_COLOR": "1"],
                              executable: URL(fileURLWithPath: "/usr/bin/script"))
        #expect(tty.status == 0)
        #expect(tty.stdout.contains(#"X-Title: \x1b]0;pwned\x07tail"#))
        #expect(tty.stdout.contains(#"before \x1b[2J\x1b]0;owned\x07 after"#))
        #expect(!tty.stdoutData.contains(0x1B) && !tty.stdoutData.contains(0x07))

        let piped = try CLI.run([server.url("/escape")])
        #expect(piped.stdoutData == Data("before \u{1B}[2J\u{1B}]0;owned\u{07} after\n".utf8))
    }
}
