import Foundation

/// Latency and fault rules to play over a transport (``ConditionedTransport``) or a server.
///
/// ```swift
/// let conditions = NetworkConditions(latency: .recorded,
///                                    faults: [try FaultRule(parsing: "/flaky=reset@10%")], seed: 42)
/// let replay = ConditionedTransport(inner: try ReplayTransport(contentsOf: cassette), conditions: conditions)
/// ```
public struct NetworkConditions: Sendable, Hashable {
    /// The delay before each answer.
    public var latency: Latency
    /// The rules, tried in order; the first that catches a request (rate drawn) applies.
    public var faults: [FaultRule]
    /// The seed of the generator that draws rates, so a run repeats.
    public var seed: UInt64

    /// Creates conditions; the defaults add nothing.
    public init(latency: Latency = .none, faults: [FaultRule] = [], seed: UInt64 = 0) {
        self.latency = latency
        self.faults = faults
        self.seed = seed
    }

    /// Whether these conditions change anything.
    public var isEmpty: Bool { latency == .none && faults.isEmpty }
}

/// A small, fast, seeded generator (SplitMix64), so fault rates repeat from run to run.
struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
