import Foundation

/// Runs blocking work (a child process, a raw socket read) on a thread of its own.
///
/// Not on `DispatchQueue.global()`: on Linux its threads are few (about one per core), so a
/// handful of blocked work items would starve each other and the in-process servers.
enum Blocking {
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }
}
