import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Tapedeck
import TapedeckTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// HTTPS through `proxy --intercept` and `serve --intercept`/`--tls`, as users meet it: real
/// clients (curl, Python requests, HTTPie, openssl) against a local HTTPS upstream with a
/// throwaway CA of its own, and a Tapedeck CA made in a scratch folder.
@Suite("HTTPS: the local CA, interception, replay over TLS", .enabled(if: Proc.tapedeck != nil && Proc.hasVenv))
struct HTTPSTests {
    /// A scratch folder with its own Tapedeck CA folder, and the environment that points there.
    /// `CI` is cleared so `--record` keeps its interactive default (`once`) on a CI runner too.
    struct Scratch {
        let directory: URL
        var caDirectory: URL { directory.appendingPathComponent("ca") }
        var tapedeckCA: String { caDirectory.appendingPathComponent("tapedeck-ca.pem").path }
        var environment: [String: String] {
            ["TAPEDECK_CA_DIR": caDirectory.path, "TAPEDECK_USAGE_DIR": directory.path, "TAPEDECK_RECORD_MODE": "", "CI": "",
             "HTTPIE_CONFIG_DIR": directory.appendingPathComponent("httpie").path, "HOME": directory.path]
        }

        init() throws {
            directory = try Proc.temporaryDirectory()
            let httpie = directory.appendingPathComponent("httpie")
            try FileManager.default.createDirectory(at: httpie, withIntermediateDirectories: true)
            try Data(#"{"disable_update_warnings": true}"#.utf8).write(to: httpie.appendingPathComponent("config.json"))
        }
    }

    /// The HTTPS upstream (`tls_upstream.py`): its port, and the CA it trusts, in `directory`.
    static func upstream(in directory: URL, mode: String = "valid") throws -> (server: TapedeckTestSupport.ServerProcess, port: Int, ca: String) {
        let script = Proc.packageRoot.appendingPathComponent("Tests/Support/Python/tls_upstream.py").path
        let server = try TapedeckTestSupport.ServerProcess(Proc.python, arguments: [script, directory.path, mode], expecting: 1)
        return (server, server.ports[0], directory.appendingPathComponent("upstream-ca.pem").path)
    }

    /// What each of the three clients gets for `path` on `https://localhost:PORT` through `proxy`, trusting `ca`.
    static func clients(_ path: String, port: Int, proxy: URL, ca: String, environment: [String: String]) async throws -> [String: Proc.Result] {
        let url = "https://localhost:\(port)\(path)"
        let curl = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.absoluteString, "--cacert", ca, url + "?client=curl"])
        let requests = try await Proc.run(Proc.python, ["-c", "import requests, sys; r = requests.get(sys.argv[1]); print(r.status_code, r.text)",
                                                        url + "?client=requests"],
                                          environment: environment.merging(["HTTPS_PROXY": proxy.absoluteString, "REQUESTS_CA_BUNDLE": ca]) { $1 })
        let httpie = try await Proc.run((Proc.venv ?? "") + "/bin/http", ["--ignore-stdin", "--body", url + "?client=httpie"],
                                        environment: environment.merging(["HTTPS_PROXY": proxy.absoluteString, "REQUESTS_CA_BUNDLE": ca]) { $1 })
        return ["curl": curl, "requests": requests, "httpie": httpie]
    }

    @Test("curl, Python requests and HTTPie record https:// interactions through proxy --intercept, and replay them through serve --intercept with the upstream stopped")
    func recordAndReplay() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory)
        let cassette = scratch.directory.appendingPathComponent("https.cassette.json")
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", cassette.path, "--upstream-ca", upstreamCA],
                                            environment: scratch.environment)
        let recorded = try await Self.clients("/orders/7", port: port, proxy: proxy.url, ca: scratch.tapedeckCA, environment: scratch.environment)
        for (client, result) in recorded {
            #expect(result.status == 0 && result.text.contains(#""path": "/orders/7?client=\#(client)""#), "\(client): \(result.text) \(result.stderr)")
        }
        let (status, stderr) = await proxy.stop(signal: SIGINT)
        #expect(status == 0 && stderr.contains("3 recorded"), "\(stderr)")
        let urls = try Cassette.load(from: cassette).interactions.map(\.request.url.absoluteString).sorted()
        #expect(urls == ["curl", "httpie", "requests"].map { "https://localhost:\(port)/orders/7?client=\($0)" }, "\(urls)")

        upstream.stop()
        let server = try await ServerProcess(["serve", cassette.path, "--intercept"], environment: scratch.environment)
        let replayed = try await Self.clients("/orders/7", port: port, proxy: server.url, ca: scratch.tapedeckCA, environment: scratch.environment)
        for (client, result) in replayed {
            #expect(result.status == 0 && result.text == recorded[client]?.text, "\(client) replayed: \(result.text) \(result.stderr)")
        }
        let (_, serveLog) = await server.stop(signal: SIGINT)
        #expect(serveLog.contains("3 played") && serveLog.contains("0 unmatched"), "\(serveLog)")
    }

    @Test("an answer given again inside an intercepted tunnel is never given to the same head sent outside it")
    func answersGivenAgainStayInTheirTunnel() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let cassette = scratch.directory.appendingPathComponent("tunnel.cassette.json")
        try Cassette(interactions: [Interaction(request: HTTPRequest(url: try #require(URL(string: "https://api.example.test/once"))),
                                                response: HTTPResponse(status: 200, body: Data("tunnelled".utf8)))]).write(to: cassette)
        let server = try await ServerProcess(["serve", cassette.path, "--intercept", "--repeat"], environment: scratch.environment)
        // Kept once its head came twice on a loop: six tunnels reach both loops of two cores.
        for _ in 0..<6 {
            let tunnelled = try await Proc.run(Proc.curl, ["-sS", "-x", server.url.absoluteString, "--cacert", scratch.tapedeckCA, "https://api.example.test/once"])
            #expect(tunnelled.text == "tunnelled", "\(tunnelled.text) \(tunnelled.stderr)")
        }
        // The same head bytes on plain connections ask the server itself, where nothing matches.
        for _ in 0..<6 {
            let plain = try await Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: api.example.test",
                                                       server.url.absoluteString + "/once"])
            #expect(plain.text == "404", "\(plain.text) \(plain.stderr)")
        }
        let (_, log) = await server.stop(signal: SIGINT)
        #expect(log.contains("6 played"), "\(log)")
    }

    @Test("an upstream whose certificate is self-signed or expired is refused with 502, the reason and the flag; --insecure-upstream says so and records",
          arguments: ["self-signed", "expired"])
    func badUpstreamRefused(mode: String) async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory, mode: mode)
        defer { upstream.stop() }
        let cassette = scratch.directory.appendingPathComponent("refused.cassette.json")
        // Trusting the upstream's own CA does not make an expired certificate good.
        let extra = mode == "expired" ? ["--upstream-ca", upstreamCA] : []
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", cassette.path] + extra, environment: scratch.environment)
        let refused = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.url.absoluteString, "--cacert", scratch.tapedeckCA,
                                                     "-w", "\n%{http_code}", "https://localhost:\(port)/secret"])
        #expect(refused.text.hasSuffix("\n502"), "\(refused.text)")
        #expect(refused.text.contains("TLS failure with localhost:\(port): the upstream's certificate was not accepted")
                && refused.text.contains("--upstream-ca FILE") && refused.text.contains("--insecure-upstream"), "\(refused.text)")
        #expect(!refused.text.contains(".build/") && !refused.text.contains("BoringSSL"), "no library internals: \(refused.text)")
        let (_, log) = await proxy.stop(signal: SIGINT)
        #expect(log.contains("0 recorded"), "a refused upstream records nothing: \(log)")

        let insecure = try await ServerProcess(["proxy", "--intercept", "--record", cassette.path, "--insecure-upstream"], environment: scratch.environment)
        let passed = try await Proc.run(Proc.curl, ["-sS", "-x", insecure.url.absoluteString, "--cacert", scratch.tapedeckCA, "https://localhost:\(port)/secret"])
        #expect(passed.text.contains(#""path": "/secret""#), "\(passed.text) \(passed.stderr)")
        let (_, insecureLog) = await insecure.stop(signal: SIGINT)
        #expect(insecureLog.contains("--insecure-upstream: the upstream's certificate is not verified"), "\(insecureLog)")
        #expect(insecureLog.contains("1 recorded"), "\(insecureLog)")
    }

    @Test("a client that does not trust the CA is logged with what to do, and the proxy keeps serving")
    func untrustedClientLogged() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory)
        defer { upstream.stop() }
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", scratch.directory.appendingPathComponent("c.json").path,
                                             "--upstream-ca", upstreamCA], environment: scratch.environment)
        let rejected = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.url.absoluteString, "https://localhost:\(port)/a"])
        #expect(rejected.status == 60, "curl refuses a certificate from a CA it does not trust: \(rejected.stderr)")
        let python = try await Proc.run(Proc.python, ["-c", "import requests, sys\ntry: requests.get(sys.argv[1])\nexcept requests.exceptions.SSLError: print('refused')",
                                                      "https://localhost:\(port)/b"],
                                        environment: ["HTTPS_PROXY": proxy.url.absoluteString, "REQUESTS_CA_BUNDLE": upstreamCA])
        #expect(python.text.contains("refused"), "\(python.text) \(python.stderr)")
        let trusted = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.url.absoluteString, "--cacert", scratch.tapedeckCA, "https://localhost:\(port)/c"])
        #expect(trusted.text.contains(#""path": "/c""#), "the proxy keeps serving: \(trusted.text) \(trusted.stderr)")
        let (_, log) = await proxy.stop(signal: SIGINT)
        let lines = log.split(separator: "\n").filter { $0.contains("rejected Tapedeck's certificate for localhost") }
        #expect(lines.count == 2, "\(log)")
        #expect(lines.first?.contains("curl/") == true, "the client is named: \(log)")
        #expect(lines.allSatisfy { $0.contains("tapedeck ca trust") && $0.contains("tapedeck ca env") && $0.contains("--pass-through localhost") }, "\(log)")
        #expect(log.contains("1 recorded"), "\(log)")
    }

    @Test("an upstream that answers plain HTTP to TLS is named so, with the fix; a tunnel with no handshake is closed as the server's doing",
          .enabled(if: Proc.httpbin != nil))
    func plainUpstreamAndSilentTunnel() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let plain = try #require(Proc.httpbin?.port)
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", scratch.directory.appendingPathComponent("c.json").path,
                                             "--read-timeout", "1"], environment: scratch.environment)
        let refused = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.url.absoluteString, "--cacert", scratch.tapedeckCA, "https://127.0.0.1:\(plain)/get"])
        #expect(refused.text.contains("the upstream did not answer in TLS; if it speaks plain HTTP, give its URL as http://"), "\(refused.text)")
        #expect(!refused.text.contains("--upstream-ca"), "\(refused.text)")
        // A tunnel opened and never used: the read timeout closes it, and the log does not blame trust.
        let socket = try RawSocket(port: proxy.url.port ?? 0)
        let closed = await Blocking.run {
            socket.send(Data("CONNECT localhost:9 HTTP/1.1\r\nHost: localhost:9\r\n\r\n".utf8))
            return socket.waitForClose()
        }
        #expect(closed)
        let (_, log) = await proxy.stop(signal: SIGINT)
        #expect(log.contains("TLS handshake for localhost did not finish before the server closed the connection"), "\(log)")
        #expect(!log.contains("may not trust"), "\(log)")
    }

    @Test("a client that opens an intercepted tunnel and sends nothing is closed after the read timeout")
    func idleTunnelTimesOut() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", scratch.directory.appendingPathComponent("c.json").path,
                                             "--read-timeout", "1"], environment: scratch.environment)
        // s_client keeps its tunnel open, sending nothing (`-quiet` ignores the end of its input),
        // until the proxy closes it or `timeout` ends it.
        let command = "timeout 8 openssl s_client -quiet -proxy 127.0.0.1:\(proxy.url.port ?? 0) -connect localhost:9 "
            + "-servername localhost -CAfile '\(scratch.tapedeckCA)' < /dev/null >/dev/null 2>&1; echo $?"
        let start = Date()
        let ended = try await Proc.run("/bin/sh", ["-c", command])
        let seconds = Date().timeIntervalSince(start)
        #expect(ended.text.trimmingCharacters(in: .whitespacesAndNewlines) != "124", "the tunnel was still open after 8 s")
        #expect(seconds < 6, "closed after \(seconds) s")
        let (_, log) = await proxy.stop(signal: SIGINT)
        #expect(!log.contains("rejected Tapedeck's certificate"), "the client trusted the CA: \(log)")
    }

    @Test("--pass-through tunnels a host byte for byte: the client sees the upstream's own certificate, and nothing is recorded")
    func passThrough() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory)
        defer { upstream.stop() }
        let cassette = scratch.directory.appendingPathComponent("pass.cassette.json")
        let proxy = try await ServerProcess(["proxy", "--intercept", "--pass-through", "localhost", "--record", cassette.path],
                                            environment: scratch.environment)
        // Trusting only the upstream's CA works: the certificate is the upstream's.
        let passed = try await Proc.run(Proc.curl, ["-sS", "-x", proxy.url.absoluteString, "--cacert", upstreamCA, "https://localhost:\(port)/pinned",
                                                    "-H", "X-Body: x"])
        #expect(passed.text.contains(#""path": "/pinned""#), "\(passed.text) \(passed.stderr)")
        let issuer = try await Self.presentedCertificate(proxy: proxy.url, port: port, field: "-issuer")
        #expect(issuer.contains("Upstream Test CA"), "\(issuer)")
        // 127.0.0.1 is not passed through: it is intercepted, with Tapedeck's leaf.
        let intercepted = try await Self.presentedCertificate(proxy: proxy.url, port: port, host: "127.0.0.1", field: "-issuer")
        #expect(intercepted.contains("Tapedeck local CA"), "\(intercepted)")
        let (_, log) = await proxy.stop(signal: SIGINT)
        #expect(log.contains("0 recorded"), "\(log)")
        #expect((try? Cassette.load(from: cassette).interactions.count) ?? 0 == 0)
    }

    /// A raw upstream answering `answer` once, `proxy --intercept --pass-through localhost`, and
    /// a raw socket connected to the proxy.
    static func passThroughTo(_ answer: String, in scratch: Scratch) async throws -> (OneShotUpstream, ServerProcess, RawSocket) {
        let upstream = try OneShotUpstream(answer: Data(answer.utf8))
        do {
            let proxy = try await ServerProcess(["proxy", "--intercept", "--pass-through", "localhost",
                                                 "--record", scratch.directory.appendingPathComponent("c.json").path],
                                                environment: scratch.environment)
            return (upstream, proxy, try RawSocket(port: proxy.url.port ?? 0, receiveTimeout: 5))
        } catch {
            upstream.stop()
            throw error
        }
    }

    @Test("a passed-through tunnel whose client closes its side still brings the upstream's whole answer back, however slowly it reads")
    func passThroughHalfClose() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let body = String(repeating: "tunnel", count: 500_000)
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let (upstream, proxy, socket) = try await Self.passThroughTo(answer, in: scratch)
        defer { upstream.stop() }
        let received: Data = await Blocking.run {
            socket.send("CONNECT localhost:\(upstream.port) HTTP/1.1\r\nHost: localhost:\(upstream.port)\r\n\r\n")
            let established = socket.read { $0.range(of: Data("\r\n\r\n".utf8)) != nil }
            guard String(decoding: established, as: UTF8.self).hasPrefix("HTTP/1.1 200") else { return established }
            socket.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            socket.closeSending()
            // The upstream has written all and closed before this reads: the rest waits in the proxy.
            Thread.sleep(forTimeInterval: 0.5)
            return socket.readToEnd()
        }
        #expect(received.count == answer.utf8.count)
        #expect(String(decoding: received, as: UTF8.self) == answer)
        _ = await proxy.stop(signal: SIGINT)
    }

    @Test("a client that closes its side right after CONNECT has the close passed through the tunnel it opens")
    func halfCloseBeforeTunnel() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        // This upstream answers once its request head has come, or its client closed its side.
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbye!"
        let (upstream, proxy, socket) = try await Self.passThroughTo(answer, in: scratch)
        defer { upstream.stop() }
        let outcome: (text: String, closed: Bool) = await Blocking.run {
            socket.send("CONNECT localhost:\(upstream.port) HTTP/1.1\r\nHost: localhost:\(upstream.port)\r\n\r\n")
            socket.closeSending()
            let start = Date()
            let received = socket.readToEnd()
            return (String(decoding: received, as: UTF8.self), Date().timeIntervalSince(start) < 4)
        }
        #expect(outcome.text.hasPrefix("HTTP/1.1 200") && outcome.text.hasSuffix(answer), "\(outcome.text.debugDescription)")
        #expect(outcome.closed)
        _ = await proxy.stop(signal: SIGINT)
    }

    /// `openssl x509 FIELD` of the certificate presented through `proxy` for `host:port`.
    static func presentedCertificate(proxy: URL, port: Int, host: String = "localhost", field: String) async throws -> String {
        let command = "echo | openssl s_client -proxy 127.0.0.1:\(proxy.port ?? 0) -connect \(host):\(port) -servername \(host) 2>/dev/null "
            + "| openssl x509 -noout \(field)"
        return try await Proc.run("/bin/sh", ["-c", command]).text
    }

    @Test("the CA key is 0600 in a 0700 folder; a minted leaf has SAN, EKU serverAuth, at most 397 days and SHA-256; the cache hands out the same leaf")
    func caAndLeaf() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let binary = try #require(Proc.tapedeck)
        let show = try await Proc.run(binary, ["ca", "show"], environment: scratch.environment)
        #expect(show.status == 0 && show.stderr.contains("created a local CA"), "\(show.stderr)")
        let key = scratch.caDirectory.appendingPathComponent("tapedeck-ca-key.pem").path
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: scratch.caDirectory.path)[.posixPermissions] as? Int == 0o700)
        let fingerprint = try await Proc.run("/usr/bin/openssl", ["x509", "-in", scratch.tapedeckCA, "-noout", "-fingerprint", "-sha256"]).text
        let shown = fingerprint.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "?"
        #expect(show.text.contains("SHA-256      " + shown), "\(show.text) \(fingerprint)")
        // A second run opens the same CA; export writes it as DER that openssl reads.
        let der = scratch.directory.appendingPathComponent("ca.cer").path
        let export = try await Proc.run(binary, ["ca", "export", "--der", der], environment: scratch.environment)
        #expect(export.status == 0 && !export.stderr.contains("created"), "\(export.stderr)")
        let fromDER = try await Proc.run("/usr/bin/openssl", ["x509", "-inform", "der", "-in", der, "-noout", "-fingerprint", "-sha256"]).text
        #expect(fromDER == fingerprint)
        // Never over a file of the CA's own folder: its key above all.
        let over = try await Proc.run(binary, ["ca", "export", "--pem", key], environment: scratch.environment)
        #expect(over.status != 0 && over.stderr.contains("is in the CA's own folder"), "\(over.stderr)")
        #expect(try String(contentsOfFile: key, encoding: .utf8).contains("PRIVATE KEY"), "the key is kept")

        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory)
        defer { upstream.stop() }
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", scratch.directory.appendingPathComponent("c.json").path,
                                             "--upstream-ca", upstreamCA], environment: scratch.environment)
        let text = try await Self.presentedCertificate(proxy: proxy.url, port: port, field: "-text")
        #expect(text.contains("DNS:localhost"), "\(text)")
        #expect(text.contains("TLS Web Server Authentication"), "\(text)")
        #expect(text.contains("Signature Algorithm: ecdsa-with-SHA256"), "\(text)")
        #expect(text.contains("CA:FALSE"), "\(text)")
        let dates = try await Self.presentedCertificate(proxy: proxy.url, port: port, field: "-dates")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        let parsed = dates.split(separator: "\n").compactMap { line -> Date? in
            line.split(separator: "=", maxSplits: 1).last.flatMap { formatter.date(from: $0.split(separator: " ").filter { !$0.isEmpty }.joined(separator: " ")) }
        }
        try #require(parsed.count == 2, "\(dates)")
        #expect(parsed[1].timeIntervalSince(parsed[0]) <= 397 * 86_400, "\(dates)")
        let first = try await Self.presentedCertificate(proxy: proxy.url, port: port, field: "-fingerprint -sha256")
        let second = try await Self.presentedCertificate(proxy: proxy.url, port: port, field: "-fingerprint -sha256")
        #expect(!first.isEmpty && first == second, "the second connection gets the cached leaf")
        _ = await proxy.stop(signal: SIGINT)

        // A key others can read is refused, with the command that fixes it.
        chmod(key, 0o644)
        let exposed = try await Proc.run(binary, ["ca", "show"], environment: scratch.environment)
        #expect(exposed.status != 0 && exposed.stderr.contains("chmod 600 \(key)"), "\(exposed.stderr)")
    }

    @Test("serve --tls answers https:// for localhost, 127.0.0.1 and ::1; ca env makes curl trust it without --cacert")
    func serveTLSAndEnv() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: scratch.directory)
        let server = try await ServerProcess(["serve", file.path, "--tls", "--tls-name", "api.test", "--repeat"], environment: scratch.environment)
        #expect(server.url.scheme == "https")
        let port = server.url.port ?? 0
        for host in ["localhost", "127.0.0.1"] {
            let result = try await Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", scratch.tapedeckCA,
                                                        "https://\(host):\(port)/users"])
            #expect(result.text == "200", "\(host): \(result.text) \(result.stderr)")
        }
        let named = try await Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", scratch.tapedeckCA,
                                                   "--resolve", "api.test:\(port):127.0.0.1", "https://api.test:\(port)/users"])
        #expect(named.text == "200", "--tls-name is in the certificate: \(named.stderr)")
        // Only the names served are signed: a client naming another host does not trust the server.
        let foreign = try await Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "--cacert", scratch.tapedeckCA,
                                                     "--resolve", "www.example.com:\(port):127.0.0.1", "https://www.example.com:\(port)/users"])
        #expect(foreign.status == 60, "\(foreign.status) \(foreign.stderr)")
        // Plain HTTP to the TLS socket is answered, in plain HTTP, with what to do.
        let plain = try await Proc.run(Proc.curl, ["-s", "-w", "\n%{http_code}", "http://127.0.0.1:\(port)/users"])
        #expect(plain.text.hasSuffix("use https://\n\n400"), "\(plain.text) \(plain.stderr)")
        let names = try await Proc.run("/bin/sh", ["-c", "echo | openssl s_client -connect 127.0.0.1:\(port) 2>/dev/null | openssl x509 -noout -ext subjectAltName"]).text
        #expect(names.contains("DNS:localhost") && names.contains("IP Address:127.0.0.1") && names.contains("IP Address:0:0:0:0:0:0:0:1"), "\(names)")
        let binary = try #require(Proc.tapedeck)
        let env = try await Proc.run(binary, ["ca", "env", "--proxy", "http://127.0.0.1:8080"], environment: scratch.environment)
        for name in ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "HTTPS_PROXY"] {
            #expect(env.text.contains("export \(name)="), "\(env.text)")
        }
        // curl reads CURL_CA_BUNDLE: with the lines evaluated it trusts the server, and still
        // trusts the system's roots (the bundle holds both).
        let evaluated = try await Proc.run("/bin/sh", ["-c", "eval \"$(\"$0\" ca env)\"; curl -sS -o /dev/null -w '%{http_code}\\n' https://localhost:\(port)/users; "
                                                         + "grep -c 'BEGIN CERTIFICATE' \"$CURL_CA_BUNDLE\"", binary],
                                           environment: scratch.environment)
        let lines = evaluated.text.split(separator: "\n")
        #expect(lines.first == "200", "\(evaluated.text) \(evaluated.stderr)")
        // The bundle clients are pointed at is written by its owner alone, whatever the umask.
        _ = try await Proc.run("/bin/sh", ["-c", "umask 000; \"$0\" ca env >/dev/null", binary], environment: scratch.environment)
        let bundle = scratch.caDirectory.appendingPathComponent("tapedeck-ca-bundle.pem").path
        #expect(try FileManager.default.attributesOfItem(atPath: bundle)[.posixPermissions] as? Int == 0o644)
        #expect((lines.last.flatMap { Int($0) } ?? 0) > 1, "the bundle keeps the system's roots: \(evaluated.text)")
        _ = await server.stop(signal: SIGINT)
    }

    @Test("a TLS server stopped while an answer is on its way answers it, and exits")
    func tlsStopDrains() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let file = try SampleCassettes.write(SampleCassettes.api(), to: scratch.directory)
        let server = try await ServerProcess(["serve", file.path, "--tls", "--repeat", "--latency", "800"], environment: scratch.environment)
        let port = server.url.port ?? 0
        async let answered = Proc.run(Proc.curl, ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", scratch.tapedeckCA,
                                                  "https://localhost:\(port)/users"])
        try await Task.sleep(for: .milliseconds(400))
        let started = ContinuousClock.now
        let (status, stderr) = await server.stop(signal: SIGINT)
        let waited = ContinuousClock.now - started
        #expect(status == 0, "\(stderr)")
        #expect(try await answered.text == "200", "the answer on its way reached its client")
        // The answer at about 0.4 s, then the TLS handler's wait for the client's close_notify
        // (at most 1 s): well within the grace (3 s).
        #expect(waited < .seconds(3), "\(waited)")
    }

    @Test("ca trust prints the simulator command off macOS, and installs into an Android emulator through adb under OpenSSL's old subject hash")
    func trustCommands() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let binary = try #require(Proc.tapedeck)
        let simulator = try await Proc.run(binary, ["ca", "trust", "--simulator", "booted"], environment: scratch.environment)
        #expect(simulator.text.contains("xcrun simctl keychain booted add-root-cert \(scratch.tapedeckCA)"), "\(simulator.text)")
        let hash = try await Proc.run("/usr/bin/openssl", ["x509", "-in", scratch.tapedeckCA, "-noout", "-subject_hash_old"]).text
            .trimmingCharacters(in: .whitespacesAndNewlines)
        // Without adb: the steps. With a stand-in adb on PATH: each step run, in order.
        let steps = try await Proc.run(binary, ["ca", "trust", "--android-emulator"], environment: scratch.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 })
        #expect(steps.text.contains("-writable-system") && steps.text.contains("adb push") && steps.text.contains("/system/etc/security/cacerts/\(hash).0"),
                "\(steps.text)")
        let bin = scratch.directory.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = scratch.directory.appendingPathComponent("adb.log").path
        try Data("#!/bin/sh\necho \"$@\" >> \(log)\n".utf8).write(to: bin.appendingPathComponent("adb"))
        chmod(bin.appendingPathComponent("adb").path, 0o755)
        let ran = try await Proc.run(binary, ["ca", "trust", "--android-emulator"],
                                     environment: scratch.environment.merging(["PATH": bin.path + ":/usr/bin:/bin"]) { $1 })
        #expect(ran.status == 0, "\(ran.stderr)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(calls.first == "root" && calls.dropFirst().first == "remount" && calls.last == "reboot", "\(calls)")
        #expect(calls.contains { $0.hasPrefix("push ") && $0.hasSuffix("/system/etc/security/cacerts/\(hash).0") }, "\(calls)")
    }

    @Test("bad input: --pass-through without --intercept, --upstream-ca that is not PEM, proxy with neither upstream nor --intercept, proxy --tls", arguments: [
        (["proxy", "http://127.0.0.1:9", "--record", "x.json", "--pass-through", "a.test"], "--pass-through needs --intercept"),
        (["proxy", "--record", "x.json"], "tapedeck proxy --intercept --record"),
        (["proxy", "--intercept", "--record", "x.json", "--upstream-ca", "/etc/hostname"], "holds no PEM certificate"),
        (["serve", "x.json", "--tls-name", "a.test"], "--tls-name needs --tls"),
        // serve's own TLS is not a proxy's flag, nor in its help.
        (["proxy", "--intercept", "--tls", "--record", "x.json"], "Unknown option '--tls'"),
        (["ca", "export"], "give one of --pem FILE or --der FILE"),
    ])
    func badInput(arguments: [String], message: String) async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        let result = try await Proc.run(try #require(Proc.tapedeck), arguments, environment: scratch.environment)
        #expect(result.status == 1 && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test("URLSession through proxy --intercept, measured in a child process: corelibs ignores connectionProxyDictionary, follows https_proxy, and trusts only the system's store")
    func urlSessionThroughProxy() async throws {
        let scratch = try Scratch()
        defer { Proc.cleanUp(scratch.directory) }
        // A small URLSession client of its own: the proxy variable must not reach the test process.
        let source = scratch.directory.appendingPathComponent("client.swift")
        try Data("""
            import Foundation
            #if canImport(FoundationNetworking)
            import FoundationNetworking
            #endif
            let arguments = CommandLine.arguments
            let configuration = URLSessionConfiguration.ephemeral
            if arguments.count > 2 { configuration.connectionProxyDictionary = ["HTTPSEnable": 1, "HTTPSProxy": "127.0.0.1", "HTTPSPort": Int(arguments[2]) ?? 0] }
            let done = DispatchSemaphore(value: 0)
            URLSession(configuration: configuration).dataTask(with: URL(string: arguments[1])!) { data, _, error in
                print(error.map { "error: \\($0.localizedDescription)" } ?? String(decoding: data ?? Data(), as: UTF8.self))
                done.signal()
            }.resume()
            done.wait()
            """.utf8).write(to: source)
        let client = scratch.directory.appendingPathComponent("client").path
        let compiled = try await Proc.run("/usr/bin/env", ["swiftc", source.path, "-o", client], environment: ["TMPDIR": scratch.directory.path], timeout: 120)
        try #require(compiled.status == 0, "\(compiled.stderr)")
        let (upstream, port, upstreamCA) = try Self.upstream(in: scratch.directory)
        defer { upstream.stop() }
        let proxy = try await ServerProcess(["proxy", "--intercept", "--record", scratch.directory.appendingPathComponent("c.json").path,
                                             "--upstream-ca", upstreamCA], environment: scratch.environment)
        let proxyPort = String(proxy.url.port ?? 0)
        let url = "https://localhost:\(port)/from-urlsession"
        let viaDictionary = try await Proc.run(client, [url, proxyPort])
        let viaEnvironment = try await Proc.run(client, [url], environment: ["https_proxy": proxy.url.absoluteString,
                                                                               "SSL_CERT_FILE": scratch.tapedeckCA])
        let (_, log) = await proxy.stop(signal: SIGINT)
        #expect(viaDictionary.text.contains("error:") && viaEnvironment.text.contains("error:"), "\(viaDictionary.text) \(viaEnvironment.text)")
        // One CONNECT reached the proxy: the one https_proxy sent. SSL_CERT_FILE did not make it trust the CA.
        #expect(log.components(separatedBy: "rejected Tapedeck's certificate for localhost").count - 1 == 1, "\(log)")
    }
}
