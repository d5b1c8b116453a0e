import Foundation
import Tapedeck
import TapedeckServer
import TapedeckShell
import TapedeckTestSupport
import TapedeckTooling
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One way a user opens a cassette, driven the way that user drives it.
enum FrontEnd: String, CaseIterable, CustomStringConvertible {
    /// `replay PATH [--repeat]` at the prompt, then request lines (`--follow` per request).
    case repl
    /// `record PATH --mode once` at the prompt on an existing cassette: a recording session that replays.
    case replRecording
    /// `tapedeck run --replay PATH [--match …] [--follow]` on a script: the built binary.
    case run
    /// `tapedeck run --record PATH --mode once` on an existing cassette.
    case runRecording
    /// `withCassette(PATH, mode: .replayOnly, …) { session in … }`.
    case withCassette
    /// `URLSession.replaying(PATH, …)`.
    case urlSessionReplaying
    /// `CassetteServer.serve` (what `tapedeck serve` runs), sent to by a client that follows redirects or not.
    case serve

    var description: String { rawValue }

    /// Whether this front-end can be asked not to follow redirects: `withCassette` hands the
    /// test a `URLSession`, which follows them, as it does live.
    func supports(_ setup: Setup) -> Bool { self != .withCassette || setup.follow }
}

/// How a cassette is opened for a row of the table.
struct Setup: CustomStringConvertible {
    /// The matching spec, as `--match` takes it (nil: method and URL).
    var match: String?
    /// Whether the last match is served again.
    var repeats = false
    /// Whether the client follows redirects (`--follow`, `followRedirects`).
    var follow = false

    var description: String { "match \(match ?? "default")\(repeats ? ", repeats" : "")\(follow ? ", follow" : "")" }

    var matcher: Matcher {
        get throws { try match.map { try Matcher(spec: $0) } ?? Matcher() }
    }
}

/// One request of a row, in the words each front-end takes.
struct Probe: CustomStringConvertible {
    var method: HTTPMethod = .get
    /// Path and query at the recorded origin (`/cookies/set?cookie=SECRET-789`).
    var target: String
    var headers: [(String, String)] = []
    /// HTTPie-style items for the REPL and scripts (`user=a nonce=zzz`, `--form code=1`).
    var items = ""
    /// The body the other clients send, and its content type.
    var body: String?
    var contentType: String?

    var description: String { "\(method) \(target)" }

    static let origin = "http://api.test"

    /// The request line the prompt and scripts take.
    var line: String {
        let headerItems = headers.map { " \($0.0):\($0.1)" }.joined()
        return "\(method.rawValue.lowercased()) \(Probe.origin)\(target)\(headerItems)\(items.isEmpty ? "" : " " + items)"
    }

    func urlRequest(origin: String) -> URLRequest {
        var request = URLRequest(url: URL(string: origin + target)!)
        request.httpMethod = method.rawValue
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        return request
    }
}

/// Sends probes through each front-end and reports each one's status, or nil when the request
/// matched nothing (an unmatched error, or the server's unmatched answer).
enum FrontEndDriver {
    static func statuses(_ probes: [Probe], through frontEnd: FrontEnd, cassette: URL, setup: Setup) async throws -> [Int?] {
        switch frontEnd {
        case .repl: return try await repl(probes, opening: "replay \(cassette.path)", setup: setup)
        case .replRecording: return try await repl(probes, opening: "record \(cassette.path) --mode once", setup: setup)
        case .run: return try run(probes, cassette: ["--replay", cassette.path], setup: setup)
        case .runRecording: return try run(probes, cassette: ["--record", cassette.path, "--mode", "once"], setup: setup)
        case .withCassette:
            return try await runCassette(cassette.path, mode: .replayOnly, matcher: try setup.matcher, allowRepeats: setup.repeats,
                                         requireAllPlayed: false, file: #filePath, environment: [:], warn: { _ in }) { session in
                await send(probes, origin: Probe.origin, through: session)
            }
        case .urlSessionReplaying:
            let session = try URLSession.replaying(cassette, allowRepeats: setup.repeats, matcher: try setup.matcher,
                                                   followRedirects: setup.follow)
            return await send(probes, origin: Probe.origin, through: session)
        case .serve:
            let server = try await CassetteServer.serve([cassette], options: DeckOptions(matcher: try setup.matcher, allowRepeats: setup.repeats,
                                                                                       environment: [:]))
            let client = URLSessionTransport(options: .init(followRedirects: setup.follow))
            var statuses: [Int?] = []
            for probe in probes {
                let request = probe.urlRequest(origin: server.url.absoluteString)
                var sent = HTTPRequest(method: probe.method, url: request.url!, body: request.httpBody)
                for (name, value) in request.allHTTPHeaderFields ?? [:] { sent.headers[name] = value }
                do {
                    let response = try await client.send(sent)
                    statuses.append(response.headers[ServerMarker.unmatchedHeader] == nil ? response.status : nil)
                } catch {
                    statuses.append(nil)
                }
            }
            _ = await server.stop()
            return statuses
        }
    }

    private static func send(_ probes: [Probe], origin: String, through session: URLSession) async -> [Int?] {
        var statuses: [Int?] = []
        for probe in probes {
            do {
                let (_, response) = try await session.data(for: probe.urlRequest(origin: origin))
                statuses.append((response as? HTTPURLResponse)?.statusCode)
            } catch {
                statuses.append(nil)
            }
        }
        return statuses
    }

    @MainActor
    private static func repl(_ probes: [Probe], opening: String, setup: Setup) async throws -> [Int?] {
        let shell = Interpreter(transport: OfflineTransport(), output: .discarding, options: .init(environment: [:]))
        shell.cassettes = CassetteController(environment: [:], allowRepeats: setup.repeats, matcher: try setup.matcher)
        _ = try await shell.run(source: opening, file: "<prompt>")
        var statuses: [Int?] = []
        for probe in probes {
            shell.state.lastResponse = nil
            do {
                _ = try await shell.run(source: probe.line + (setup.follow ? " --follow" : ""), file: "<prompt>")
                statuses.append(shell.state.lastResponse?.status)
            } catch {
                statuses.append(nil)
            }
        }
        return statuses
    }

    /// The binary, on a script with one request per line; `-v` prints `file:line:column  GET url → 200 …`
    /// for each answered request, and `--continue-on-error` goes past the unmatched ones.
    private static func run(_ probes: [Probe], cassette: [String], setup: Setup) throws -> [Int?] {
        guard let binary = TapedeckBinary.path else { throw FrontEndError.noBinary }
        let folder = try TestScratch.directory("front-end-run")
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("probes.tape")
        try (probes.map(\.line).joined(separator: "\n") + "\n").write(to: script, atomically: true, encoding: .utf8)
        var arguments = ["run", script.path] + cassette + ["-v", "--continue-on-error"]
        if let match = setup.match { arguments += ["--match", match] }
        if setup.follow { arguments.append("--follow") }
        if setup.repeats { arguments.append("--repeat") }
        let output = try ChildProcess.run(binary, arguments, environment: ["TAPEDECK_RECORD_MODE": "", "CI": ""])
        let text = String(decoding: output.stdout, as: UTF8.self)
        return probes.indices.map { index in
            let location = "probes.tape:\(index + 1):"
            guard let line = text.split(separator: "\n").first(where: { $0.contains(location) }),
                  let arrow = line.range(of: "→ ") else { return nil }
            return Int(line[arrow.upperBound...].prefix { $0.isNumber })
        }
    }
}

enum FrontEndError: Error {
    case noBinary
}

/// The built `tapedeck` binary: `TAPEDECK_BIN` (set by `make test`), else `.build/debug/tapedeck`.
enum TapedeckBinary {
    static var path: String? {
        if let bin = ProcessInfo.processInfo.environment["TAPEDECK_BIN"], FileManager.default.isExecutableFile(atPath: bin) { return bin }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let candidate = root.appendingPathComponent(".build/debug/tapedeck").path
        return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
    }
}
