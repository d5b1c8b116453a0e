#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import Tapedeck
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// In-process benchmarks of the interop formats; each prints one JSON line.
///
/// - `interop-write PATH [N]`: writes N interactions in PATH's format (`.cassette.json`, `.yaml`, `.har`).
/// - `interop-replay PATH [N]`: loads PATH (any format) and replays its N requests through
///   `ReplayTransport` and through `URLSession.replaying` (load time and µs/request for each).
/// - `interop-convert IN OUT`: converts like `tapedeck convert` (seconds, peak RSS in MB).
enum InteropBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [
        "interop-write": { args in try write(path: args.first ?? "/tmp/interop.yaml", count: Int(args.dropFirst().first ?? "") ?? 10_000) },
        "interop-replay": { args in try await replay(path: args.first ?? "/tmp/interop.yaml", count: Int(args.dropFirst().first ?? "") ?? 10_000) },
        "interop-convert": { args in try convert(from: args.first ?? "/tmp/interop.har", to: args.dropFirst().first ?? "/tmp/interop.cassette.json") },
    ]

    /// The URL of the i-th benchmark request; vcrpy's side of Benchmarks/interop.sh sends the same.
    static func url(_ index: Int) -> URL {
        URL(string: "http://bench.local/items/\(index)?page=\(index % 10)&sort=asc") ?? URL(fileURLWithPath: "/")
    }

    /// N interactions shaped like a JSON API: a few headers each way and a ~300-byte JSON body.
    static func cassette(_ count: Int) -> Cassette {
        let start = Date(timeIntervalSince1970: 1_714_557_600)
        return Cassette(interactions: (0..<count).map { index in
            let body = #"{"id": \#(index), "name": "item \#(index)", "tags": ["a", "b"], "price": 12.5, "#
                + #""description": "\#(String(repeating: "lorem ipsum ", count: 18))"}"#
            return Interaction(
                request: HTTPRequest(url: url(index), headers: ["Accept": "application/json", "User-Agent": "bench/1.0"]),
                response: HTTPResponse(status: 200, headers: ["Content-Type": "application/json",
                                                              "Content-Length": String(body.utf8.count),
                                                              "Cache-Control": "no-store"],
                                       body: Data(body.utf8), url: url(index), duration: 0.004),
                recordedAt: start.addingTimeInterval(Double(index) / 100))
        })
    }

    static func write(path: String, count: Int) throws -> String {
        let url = URL(fileURLWithPath: path)
        let format = try CassetteFormat.detect(url)
        let clock = ContinuousClock()
        let subject = cassette(count)
        let elapsed = try clock.measure { _ = try subject.write(to: url, format: format) }
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return CassetteBench.json([("name", "\"interop-write\""), ("format", "\"\(format.rawValue)\""),
                                   ("interactions", "\(count)"), ("file_bytes", "\(size)"),
                                   ("seconds", String(format: "%.3f", CassetteBench.seconds(elapsed)))])
    }

    static func replay(path: String, count: Int) async throws -> String {
        let clock = ContinuousClock()
        var loaded = Cassette()
        let loadTime = try clock.measure { loaded = try Cassette.load(from: URL(fileURLWithPath: path)) }
        let n = min(count, loaded.interactions.count)
        let transport = ReplayTransport(cassette: loaded, path: path)
        var failures = 0
        let start = clock.now
        for index in 0..<n {
            let response = try await transport.send(HTTPRequest(url: url(index), headers: ["Accept": "application/json"]))
            if response.status != 200 { failures += 1 }
        }
        let transportTime = clock.now - start
        let session = URLSession.replaying(ReplayTransport(cassette: loaded, path: path))
        let sessionStart = clock.now
        for index in 0..<n {
            var request = URLRequest(url: url(index))
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (_, response) = try await session.data(for: request)
            if (response as? HTTPURLResponse)?.statusCode != 200 { failures += 1 }
        }
        let sessionTime = clock.now - sessionStart
        let perRequest = { (duration: Duration) in String(format: "%.2f", CassetteBench.seconds(duration) * 1e6 / Double(max(n, 1))) }
        return CassetteBench.json([
            ("name", "\"interop-replay\""), ("requests", "\(n)"), ("failures", "\(failures)"),
            ("load_s", String(format: "%.3f", CassetteBench.seconds(loadTime))),
            ("transport_us_per_request", perRequest(transportTime)),
            ("urlsession_us_per_request", perRequest(sessionTime)),
            ("end_to_end_us_per_request", perRequest(loadTime + sessionTime)),
        ])
    }

    static func convert(from input: String, to output: String) throws -> String {
        let clock = ContinuousClock()
        var warnings = 0
        var count = 0
        let elapsed = try clock.measure {
            let cassette = try Cassette.load(from: URL(fileURLWithPath: input))
            count = cassette.interactions.count
            warnings = try cassette.write(to: URL(fileURLWithPath: output), format: CassetteFormat.detect(URL(fileURLWithPath: output))).count
        }
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return CassetteBench.json([("name", "\"interop-convert\""), ("interactions", "\(count)"), ("warnings", "\(warnings)"),
                                   ("seconds", String(format: "%.3f", CassetteBench.seconds(elapsed))),
                                   ("peak_rss_mb", String(format: "%.1f", Double(usage.ru_maxrss) / 1024))])
    }
}
