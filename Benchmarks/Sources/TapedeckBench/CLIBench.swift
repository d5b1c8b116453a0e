import Foundation
import TapedeckCurl
import Tapedeck

/// In-process benchmarks of this area, by name.
///
/// `cli-get-curl URL [N]` and `cli-get-urlsession URL [N]`: N sequential GETs (default 1000)
/// through one transport, after 20 warm-up requests; prints µs per request.
enum CLIBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [
        "cli-get-curl": { arguments in
            try await sequentialGets(name: "cli-get-curl", arguments: arguments, transport: CurlTransport())
        },
        "cli-get-urlsession": { arguments in
            try await sequentialGets(name: "cli-get-urlsession", arguments: arguments, transport: URLSessionTransport())
        },
    ]

    static func sequentialGets(name: String, arguments: [String], transport: any HTTPTransport) async throws -> String {
        guard let text = arguments.first, let url = URL(string: text) else {
            throw HTTPError.invalidURL(input: arguments.first ?? "", reason: "usage: \(name) URL [COUNT]")
        }
        let count = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
        let request = HTTPRequest(url: url)
        for _ in 0..<20 { _ = try await transport.send(request) }
        let clock = ContinuousClock()
        let start = clock.now
        var bytes = 0
        for _ in 0..<count {
            let response = try await transport.send(request)
            guard response.status == 200 else { throw HTTPError.noResponse(url: text, detail: "status \(response.status)") }
            bytes += response.body.count
        }
        let elapsed = clock.now - start
        let micros = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(count)
        return #"{"name":"\#(name)","requests":\#(count),"us_per_request":\#(String(format: "%.1f", micros)),"bytes":\#(bytes)}"#
    }
}
