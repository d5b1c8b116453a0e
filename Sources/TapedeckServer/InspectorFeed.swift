import Foundation
import Synchronization
import Tapedeck

/// What the live inspector shows: every answered request as one event (a JSON object), the
/// last ``kept`` of them kept for a page that opens late, and each pushed at once to every
/// open page as a server-sent event.
package final class InspectorFeed: Sendable {
    /// Events kept for pages that open later.
    package static let kept = 5_000
    /// The longest target and report an event carries (longer ones are cut, marked with `…`),
    /// so the kept events stay within a few tens of megabytes whatever clients send.
    package static let maximumTarget = 1_024
    package static let maximumReport = 4_096
    /// Pages that may be open at once; each holds up to ``kept`` events not yet sent.
    package static let maximumPages = 32

    private let events = Mutex<[String]>([])
    private let subscribers = Mutex<[UUID: AsyncStream<Data>.Continuation]>([:])
    private let counter = Atomic<Int>(0)

    package init() {}

    /// Publishes one answered request.
    package func publish(method: String, target: String, status: Int, milliseconds: Double, outcome: String, report: String?) {
        let number = counter.add(1, ordering: .relaxed).newValue
        var members: [(key: String, value: JSONValue)] = [
            ("n", JSONValue(number)),
            ("time", .string(RFC3339Date.format(Date(), fractionDigits: 3))),
            ("method", .string(method)),
            ("target", .string(Self.cut(target, to: Self.maximumTarget))),
            ("status", JSONValue(status)),
            ("ms", JSONValue((milliseconds * 10).rounded() / 10)),
            ("outcome", .string(outcome)),
        ]
        if let report { members.append(("report", .string(Self.cut(report, to: Self.maximumReport)))) }
        let line = JSONWriter.write(.object(members), options: []) as String
        events.withLock { events in
            events.append(line)
            if events.count > Self.kept { events.removeFirst(events.count - Self.kept) }
        }
        let chunk = Self.event(line)
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(chunk) }
    }

    /// The events so far, then each new one as it comes, as server-sent event chunks; nil
    /// when ``maximumPages`` pages are open already.
    package func stream() -> AsyncStream<Data>? {
        let id = UUID()
        let (stream, continuation) = AsyncStream<Data>.makeStream(bufferingPolicy: .bufferingNewest(Self.kept))
        // Registered before the backlog is read, so no event falls between the two.
        let registered = subscribers.withLock { subscribers in
            guard subscribers.count < Self.maximumPages else { return false }
            subscribers[id] = continuation
            return true
        }
        guard registered else { return nil }
        continuation.yield(Data(": tapedeck inspector\n\n".utf8))
        for line in events.withLock({ $0 }) { continuation.yield(Self.event(line)) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    /// Ends every open page's stream (the server is stopping).
    package func close() {
        for continuation in subscribers.withLock({ subscribers in
            defer { subscribers.removeAll() }
            return Array(subscribers.values)
        }) { continuation.finish() }
    }

    private static func cut(_ text: String, to limit: Int) -> String {
        text.utf8.count <= limit ? text : String(decoding: text.utf8.prefix(limit), as: UTF8.self) + "…"
    }

    private static func event(_ line: String) -> Data {
        Data("data: \(line)\n\n".utf8)
    }
}
