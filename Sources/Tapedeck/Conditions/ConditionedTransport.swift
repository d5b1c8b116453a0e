import Foundation

/// Wraps any transport and plays ``NetworkConditions`` over it: latency before each answer
/// and the faults its rules inject (see ``FaultPlan`` for what each does in-process; a server
/// plays `reset`, `truncate`, `slow` and `timeout` on the socket instead).
///
/// ```swift
/// let conditions = NetworkConditions(latency: .recorded, faults: [try FaultRule(parsing: "/flaky=reset@10%")], seed: 42)
/// let flaky = ConditionedTransport(inner: try ReplayTransport(contentsOf: cassette), conditions: conditions)
/// let session = URLSession.replaying(flaky)   // TapedeckTesting
/// ```
public final class ConditionedTransport: HTTPTransport, Sendable {
    /// The transport answering.
    public let inner: any HTTPTransport
    /// The decisions and their generator.
    package let plan: FaultPlan

    /// Wraps `inner`.
    public init(inner: any HTTPTransport, conditions: NetworkConditions) {
        self.inner = inner
        plan = FaultPlan(conditions)
    }

    /// Sends `request` and returns its response (see the type's summary for how).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await plan.send(request, applying: plan.fault(for: request), through: inner)
    }
}
