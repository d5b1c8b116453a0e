import Foundation
import Testing

@Suite("One-shot --follow against a hostile server", .enabled(if: HostileServerProcess.available, "needs python3 and the built binary"))
struct OneShotRedirectTests {
    @Test("a redirect to gopher is refused with exit 3 and nothing on stdout; an http redirect streams the final body")
    func follow() throws {
        let server = try HostileServerProcess()
        defer { server.stop() }
        let refused = try CLI.run(["--follow", server.url("/redirect?to=gopher://127.0.0.1:70/_QUIT")])
        #expect(refused.status == 3)
        #expect(refused.stdoutData.isEmpty)
        #expect(refused.stderr.contains("which has the scheme 'gopher'; only http and https redirects are followed"))
        let followed = try CLI.run(["--follow", server.url("/redirect?to=/big%3Fbytes%3D5")])
        #expect(followed.status == 0 && followed.stdout == "xxxxx")
        let looped = try CLI.run(["--follow", server.url("/loop/0")])
        #expect(looped.status == 3 && looped.stderr.contains("more than 30 redirects"))
    }
}
