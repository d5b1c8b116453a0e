import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a target over its corpus and then over seeded mutations, timing each input.
///
/// ```swift
/// let report = await FuzzDriver.run(.yaml, corpus: try FuzzCorpus.load("yaml"), seed: 1, inputs: 10_000)
/// print(report)
/// ```
public enum FuzzDriver {
    /// What one pass found.
    public struct Report: Sendable, CustomStringConvertible {
        public var target: String
        public var seed: UInt64
        public var inputs = 0
        public var accepted = 0
        public var largestInput = 0
        /// The most CPU time one input took.
        public var slowest: Duration = .zero
        public var slowestInput = Data()
        public var elapsed: Duration = .zero
        public var failures: [FuzzFailure] = []

        public var description: String {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let slowestMs = Double(slowest.components.seconds) * 1000 + Double(slowest.components.attoseconds) / 1e15
            return "\(target): \(inputs) inputs (seed \(seed)), \(accepted) accepted, \(inputs - accepted) rejected, "
                + "largest \(largestInput) B, slowest \(String(format: "%.1f", slowestMs)) ms CPU, "
                + "\(String(format: "%.1f", seconds)) s, \(failures.count) wrong answers"
        }
    }

    /// The input being run, when it started (wall clock) and the running thread's CPU time
    /// then, for a watchdog or a crash handler to save.
    public static let current = Mutex<(target: String, input: Data, started: ContinuousClock.Instant?, cpuStarted: Duration)>(
        ("", Data(), nil, .zero))

    /// CPU time used so far by the thread whose CPU clock is `clock` (the calling thread by default).
    /// Per-input times are CPU times, so a machine busy with other work does not look like a hang.
    public static func cpuTime(_ clock: clockid_t = CLOCK_THREAD_CPUTIME_ID) -> Duration {
        var now = timespec()
        clock_gettime(clock, &now)
        return .seconds(Int64(now.tv_sec)) + .nanoseconds(Int64(now.tv_nsec))
    }

    /// Runs every corpus entry, then `inputs` mutations of them.
    @MainActor
    public static func run(_ target: FuzzTarget, corpus: [Data], seed: UInt64, inputs: Int,
                           onInput: ((Data) -> Void)? = nil) async -> Report {
        var report = Report(target: target.name, seed: seed)
        var mutator = Mutator(seed: seed)
        // Large hostile entries run once as they are; mutations start from the small ones, so a
        // million inputs stay a matter of minutes.
        let small = corpus.map { [UInt8]($0) }.filter { $0.count <= Mutator.largestSeed }
        let seeds = small.isEmpty ? corpus.map { [UInt8]($0.prefix(Mutator.largestSeed)) } : small
        let dictionary = target.dictionary.map { Array($0.utf8) }
        let clock = ContinuousClock()
        let start = clock.now
        _ = FuzzFailure.drain()
        for index in 0..<(corpus.count + inputs) {
            let input = index < corpus.count ? corpus[index] : Data(mutator.input(corpus: seeds, dictionary: dictionary))
            onInput?(input)
            let began = clock.now, cpuBegan = cpuTime()
            current.withLock { $0 = (target.name, input, began, cpuBegan) }
            let accepted = await target.run(input)
            let took = cpuTime() - cpuBegan
            report.inputs += 1
            if accepted { report.accepted += 1 }
            report.largestInput = max(report.largestInput, input.count)
            if took > report.slowest {
                report.slowest = took
                report.slowestInput = input
            }
        }
        current.withLock { $0.started = nil }
        report.elapsed = clock.now - start
        report.failures = FuzzFailure.drain()
        return report
    }

    /// The peak resident set size of this process so far, in bytes.
    public static func peakMemory() -> Int {
        var usage = rusage()
        #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #else
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024
        #endif
    }
}

/// The committed corpus of hostile and ordinary inputs, `Tests/Fuzz/corpus/<target>/`.
public enum FuzzCorpus {
    /// `Tests/Fuzz/corpus`, found from this source file.
    public static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("corpus")

    /// Every file of one target's corpus, sorted by name.
    public static func load(_ target: String, from directory: URL = directory) throws -> [Data] {
        let folder = directory.appendingPathComponent(target)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        return try names.map { try Data(contentsOf: folder.appendingPathComponent($0)) }
    }
}
