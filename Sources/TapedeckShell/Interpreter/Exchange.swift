import Foundation
import Tapedeck

/// One request as the shell sends it, through any transport (live, recording or replaying):
/// a deadline over the whole exchange (`--timeout`), and redirects followed hop by hop when
/// asked (`--follow`, by the core's ``RedirectFollower`` rule), so each hop is its own
/// interaction in a cassette.
///
/// ```swift
/// let response = try await Exchange.perform(request, through: transport, timeout: 5, followRedirects: true)
/// ```
public enum Exchange {
    /// Sends `request`; fails with ``HTTPError/timedOut(url:seconds:)`` when no final response
    /// arrives within `timeout` seconds (zero or less: no limit).
    /// `streaming` says whether a streamed response's head has arrived: from then on the
    /// deadline no longer applies, and the stream flows until it ends.
    /// It runs where its caller runs (the interpreter's actor), so a replayed answer costs no thread hop.
    nonisolated(nonsending) public static func perform(_ request: HTTPRequest, through transport: any HTTPTransport,
                               timeout: TimeInterval, followRedirects: Bool,
                               streaming: @escaping @Sendable () -> Bool = { false }) async throws -> HTTPResponse {
        // A replay answers from memory at once, where it is asked: no deadline to keep, no
        // hop to another thread and back.
        if let replay = transport as? ReplayTransport, !followRedirects { return try replay.answer(request) }
        guard timeout > 0, timeout.isFinite else {
            return try await send(request, through: transport, followRedirects: followRedirects)
        }
        return try await withThrowingTaskGroup(of: HTTPResponse.self) { group in
            group.addTask { try await send(request, through: transport, followRedirects: followRedirects) }
            group.addTask {
                try await Task.sleep(for: .milliseconds(Int64((timeout * 1000).rounded(.up))))
                // A stream that began runs on; the send ending cancels this sleep.
                while streaming() { try await Task.sleep(for: .seconds(3600)) }
                throw HTTPError.timedOut(url: request.urlText, seconds: timeout)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else {
                throw HTTPError.noResponse(url: request.urlText, detail: "the exchange ended without a response")
            }
            return first
        }
    }

    /// `200 OK (12 ms)`: a response in a few words, for `-v` lines.
    public static func summary(of response: HTTPResponse) -> String {
        let reason = response.reason.isEmpty ? HTTPResponse.reasonPhrase(for: response.status) : response.reason
        let milliseconds = Int((response.duration * 1000).rounded())
        return "\(response.status) \(reason) (\(milliseconds) ms)"
    }

    private static func send(_ request: HTTPRequest, through transport: any HTTPTransport,
                             followRedirects: Bool) async throws -> HTTPResponse {
        guard followRedirects else { return try await transport.send(request) }
        return try await RedirectFollower.follow(request) { hop in try await transport.send(hop) }
    }
}
