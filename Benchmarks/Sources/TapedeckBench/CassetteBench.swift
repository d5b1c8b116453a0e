import Foundation
import Tapedeck
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// In-process benchmarks of this area, by name; each prints one JSON line.
///
/// - `cassette-replay-transport [N]`: N distinct requests served by ReplayTransport (µs/request).
/// - `cassette-replay-urlsession [N]`: the same through `URLSession.replaying` (µs/request).
/// - `cassette-save PATH [N] [BYTES]`: build N interactions of about BYTES each and write them.
/// - `cassette-load PATH`: load a cassette file (run under /usr/bin/time -v for peak RSS).
/// - `cassette-write PATH [N]`: write the replay benchmark's N interactions in PATH's format (`.yaml` for vcrpy).
/// - `cassette-lookup`: lookups per size from 100 to 100,000 interactions (µs/lookup).
/// - `cassette-record-scaling`: recording 100 to 10,000 interactions in process, no network (µs/interaction, and the final merge).
/// - `cassette-record-loop PATH [FLUSH_EVERY]`: records forever, printing each index once journaled (the kill -9 test drives it).
/// - `cassette-record-count PATH COUNT PREFIX`: after a line on stdin, records COUNT interactions and exits unflushed.
enum CassetteBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [
        "cassette-replay-transport": { args in try replayTransport(count: Int(args.first ?? "") ?? 10_000) },
        "cassette-replay-urlsession": { args in try await replayURLSession(count: Int(args.first ?? "") ?? 10_000) },
        "cassette-save": { args in try save(path: args.first ?? "/tmp/bench.cassette.json",
                                            count: Int(args.dropFirst().first ?? "") ?? 10_000,
                                            bytes: Int(args.dropFirst(2).first ?? "") ?? 5_000) },
        "cassette-load": { args in try load(path: args.first ?? "/tmp/bench.cassette.json") },
        "cassette-lookup": { _ in lookupScaling() },
        "cassette-record-scaling": { _ in try await recordScaling() },
        "cassette-write": { args in try write(path: args.first ?? "/tmp/bench.yaml", count: Int(args.dropFirst().first ?? "") ?? 10_000) },
        "cassette-record-loop": { args in try await recordLoop(path: args.first ?? "/tmp/loop.cassette.json",
                                                               flushEvery: max(1, Int(args.dropFirst().first ?? "") ?? 1_000_000)) },
        "cassette-record-count": { args in try await recordCount(path: args.first ?? "/tmp/two.cassette.json",
                                                                 count: Int(args.dropFirst().first ?? "") ?? 100,
                                                                 prefix: args.dropFirst(2).first ?? "p") },
    ]

    static func interactions(_ count: Int, bodyBytes: Int = 200) -> [Interaction] {
        let filler = String(repeating: "x", count: max(0, bodyBytes - 60))
        return (0..<count).map { index in
            let url = URL(string: "http://bench.local/items/\(index)?page=\(index % 10)&sort=asc")!
            let body = #"{"id": \#(index), "name": "item \#(index)", "filler": "\#(filler)"}"#
            return Interaction(request: HTTPRequest(url: url, headers: ["Accept": "application/json"]),
                               response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                                      body: Data(body.utf8), url: url, duration: 0.001))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func json(_ fields: [(String, String)]) -> String {
        "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func replayTransport(count: Int) throws -> String {
        let cassette = Cassette(interactions: interactions(count))
        let replay = ReplayTransport(cassette: cassette)
        let requests = cassette.interactions.map(\.request)
        let clock = ContinuousClock()
        var failures = 0
        let elapsed = clock.measure {
            for request in requests { if case .failure = replay.lookup(request) { failures += 1 } }
        }
        return json([("name", "\"cassette-replay-transport\""), ("requests", "\(count)"), ("failures", "\(failures)"),
                     ("us_per_request", String(format: "%.2f", seconds(elapsed) * 1e6 / Double(count)))])
    }

    static func replayURLSession(count: Int) async throws -> String {
        let cassette = Cassette(interactions: interactions(count))
        let session = URLSession.replaying(ReplayTransport(cassette: cassette))
        let requests = cassette.interactions.map { URLRequest(url: $0.request.url) }
        let clock = ContinuousClock()
        let start = clock.now
        var bytes = 0
        for request in requests { bytes += try await session.data(for: request).0.count }
        let elapsed = clock.now - start
        return json([("name", "\"cassette-replay-urlsession\""), ("requests", "\(count)"), ("bytes", "\(bytes)"),
                     ("us_per_request", String(format: "%.2f", seconds(elapsed) * 1e6 / Double(count)))])
    }

    static func save(path: String, count: Int, bytes: Int) throws -> String {
        let cassette = Cassette(interactions: interactions(count, bodyBytes: bytes))
        let clock = ContinuousClock()
        let elapsed = try clock.measure { try cassette.write(to: URL(fileURLWithPath: path)) }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return json([("name", "\"cassette-save\""), ("interactions", "\(count)"), ("file_bytes", "\(size)"),
                     ("seconds", String(format: "%.3f", seconds(elapsed)))])
    }

    static func write(path: String, count: Int) throws -> String {
        try Cassette(interactions: interactions(count)).write(to: URL(fileURLWithPath: path))
        return json([("name", "\"cassette-write\""), ("interactions", "\(count)"), ("path", "\"\(path)\"")])
    }

    static func load(path: String) throws -> String {
        let clock = ContinuousClock()
        var count = 0
        let elapsed = try clock.measure { count = try Cassette.load(from: URL(fileURLWithPath: path)).interactions.count }
        return json([("name", "\"cassette-load\""), ("interactions", "\(count)"), ("seconds", String(format: "%.3f", seconds(elapsed)))])
    }

    static func lookupScaling() -> String {
        var fields: [(String, String)] = [("name", "\"cassette-lookup\"")]
        for size in [100, 1_000, 10_000, 100_000] {
            let cassette = Cassette(interactions: interactions(size, bodyBytes: 60))
            let replay = ReplayTransport(cassette: cassette, configuration: CassetteConfiguration(URL(fileURLWithPath: "<memory>"), allowRepeats: true, environment: [:]))
            // Probes are rebuilt from their URLs, as a client would send them (not the recorded values).
            let probes = (0..<10_000).map { index in
                let recorded = cassette.interactions[(index * 7919) % size].request
                return HTTPRequest(method: recorded.method, url: URL(string: recorded.url.absoluteString) ?? recorded.url,
                                   headers: recorded.headers)
            }
            // Best of 5 passes: the machine is shared, and the fastest pass is the least disturbed.
            let best = (0..<5).map { _ in ContinuousClock().measure { for probe in probes { _ = replay.lookup(probe) } } }.min() ?? .zero
            fields.append(("us_per_lookup_\(size)", String(format: "%.2f", seconds(best) * 1e6 / Double(probes.count))))
            // The same with a credential in every query, as a client sends its one API key:
            // recorded redacted, sent real, so each lookup takes the redacting path (no index
            // hit as sent).
            let redacted = Cassette(interactions: interactions(size, bodyBytes: 60).map { interaction in
                var copy = interaction
                copy.request.url = URL(string: interaction.request.url.absoluteString + "&api_key=%3CREDACTED%3E") ?? interaction.request.url
                return copy
            })
            let redactedReplay = ReplayTransport(cassette: redacted, configuration: CassetteConfiguration(URL(fileURLWithPath: "<memory>"),
                                                                                                        allowRepeats: true, environment: [:]))
            let keyed = (0..<10_000).map { index in
                let recorded = cassette.interactions[(index * 7919) % size].request
                return HTTPRequest(method: recorded.method, url: URL(string: recorded.url.absoluteString + "&api_key=live-key-0123456789") ?? recorded.url,
                                   headers: recorded.headers)
            }
            let slow = (0..<5).map { _ in ContinuousClock().measure { for probe in keyed { _ = redactedReplay.lookup(probe) } } }.min() ?? .zero
            fields.append(("us_per_redacted_lookup_\(size)", String(format: "%.2f", seconds(slow) * 1e6 / Double(keyed.count))))
        }
        return json(fields)
    }

    /// Records N distinct GETs answered by an in-process stub shaped like nginx's static-file
    /// responses, into a fresh cassette: the cost per recorded interaction (redaction, lint,
    /// journal write) and of the merge at the end, for N from 100 to 10,000.
    static func recordScaling() async throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapedeck-record-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = StubTransport { request in
            HTTPResponse(status: 200, headers: ["Server": "nginx/1.22.1", "Date": "Mon, 23 Nov 2026 09:00:00 GMT",
                                                "Content-Type": "application/json", "Content-Length": "13",
                                                "Last-Modified": "Mon, 23 Nov 2026 08:00:00 GMT", "Connection": "keep-alive",
                                                "ETag": "\"6561f0a0-d\"", "Accept-Ranges": "bytes"],
                         body: Data("{\"ok\": true}\n".utf8), url: request.url, duration: 0.0001)
        }
        var fields: [(String, String)] = [("name", "\"cassette-record-scaling\"")]
        for count in [100, 1_000, 10_000] {
            let url = directory.appendingPathComponent("record-\(count).cassette.json")
            let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: server)
            let requests = (0..<count).map { HTTPRequest(url: URL(string: "http://127.0.0.1:8080/item.json?i=\($0)")!,
                                                         headers: ["Accept": "*/*", "User-Agent": "bench"]) }
            let clock = ContinuousClock()
            let start = clock.now
            for request in requests { _ = try await recorder.send(request) }
            let recorded = clock.now - start
            let merge = try clock.measure { try recorder.flush() }
            fields.append(("us_per_interaction_\(count)", String(format: "%.1f", seconds(recorded) * 1e6 / Double(count))))
            fields.append(("merge_ms_\(count)", String(format: "%.1f", seconds(merge) * 1e3)))
        }
        return json(fields)
    }

    /// Records until killed, printing each recorded index once the interaction is journaled
    /// (the kill -9 test reads these lines to know what must survive); merges every
    /// `flushEvery` interactions, printing `merge` first, so that the test can kill it mid-merge.
    static func recordLoop(path: String, flushEvery: Int) async throws -> String {
        let filler = String(repeating: "payload ", count: 500)
        let server = StubTransport { request in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data((request.url.path + filler).utf8))
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(URL(fileURLWithPath: path), mode: .new, environment: [:]), inner: server)
        var index = recorder.cassette.interactions.count
        while true {
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://loop.local/n/\(index)")!))
            FileHandle.standardOutput.write(Data("\(index)\n".utf8))
            index += 1
            if index % flushEvery == 0 {
                FileHandle.standardOutput.write(Data("merge\n".utf8))
                try recorder.flush()
            }
        }
    }

    /// Waits for a line on stdin, records COUNT interactions (`/PREFIX/0` …) and returns
    /// without flushing: the exit handler merges the journal (the two-process test runs two).
    static func recordCount(path: String, count: Int, prefix: String) async throws -> String {
        _ = readLine()
        let server = StubTransport { request in
            HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Data(request.url.path.utf8))
        }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(URL(fileURLWithPath: path), mode: .new, environment: [:]), inner: server)
        for index in 0..<count {
            _ = try await recorder.send(HTTPRequest(url: URL(string: "http://two.local/\(prefix)/\(index)")!))
        }
        return json([("name", "\"cassette-record-count\""), ("recorded", "\(count)")])
    }
}
