import ArgumentParser

/// The check both `--timeout` options (one-shot, and the REPL's and `run`'s) share.
enum TimeoutOption {
    /// Throws unless `seconds` is positive, finite and at most 2,000,000.
    static func validate(_ seconds: Double) throws {
        guard seconds.isFinite, seconds > 0, seconds <= 2_000_000 else {
            let shown = seconds.isFinite && seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
            let problem = seconds > 2_000_000 ? "is more than 2000000 seconds" : "must be a positive number of seconds"
            throw ValidationError("--timeout \(shown) \(problem); give the seconds to wait, from 0.001 to 2000000, e.g. --timeout 30")
        }
    }
}
