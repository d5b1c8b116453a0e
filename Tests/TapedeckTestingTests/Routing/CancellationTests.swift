import Foundation
import Synchronization
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts transport calls that started and that saw their cancellation.
private final class CallCounter: Sendable {
    private let counts = Mutex((started: 0, cancelled: 0))
    func start() { counts.withLock { $0.started += 1 } }
    func cancel() { counts.withLock { $0.cancelled += 1 } }
    var snapshot: (started: Int, cancelled: Int) { counts.withLock { $0 } }
}

@Suite("Cancelling requests of a TapedeckTesting session")
struct CancellationTests {
    @Test("cancelling 400 requests at every moment under load loses no cancel: each transport call that started is cancelled")
    func underLoad() async throws {
        let counter = CallCounter()
        let session = URLSession.recording(try RecordingTransport(
            configuration: CassetteConfiguration(TestScratch.path("never").appendingPathExtension("json"),
                                                 mode: .all, environment: [:]),
            inner: StubTransport { _ in
                counter.start()
                do {
                    // Never answers: only a cancellation ends this call.
                    try await Task.sleep(for: .seconds(86_400))
                } catch {
                    counter.cancel()
                    throw error
                }
                return HTTPResponse(status: 200)
            }))
        let failures = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<400 {
                group.addTask {
                    let task = Task { try await session.data(from: URL(string: "http://api.test/slow/\(index)")!) }
                    for _ in 0..<(index % 16) { await Task.yield() }
                    task.cancel()
                    do {
                        _ = try await task.value
                        return false
                    } catch let error as URLError {
                        return error.code == .cancelled
                    } catch {
                        return error is CancellationError
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(failures == 400)
        let settled = try await RouteLifetimeTests.eventually {
            let counts = counter.snapshot
            return counts.started == counts.cancelled
        }
        #expect(settled, "\(counter.snapshot.started - counter.snapshot.cancelled) of \(counter.snapshot.started) transport calls were never cancelled")
    }

    @Test("a held response stops waiting when its request is cancelled")
    func heldThenCancelled() async throws {
        let session = URLSession.stubbing { _ in .text("late") }
        session.tapedeck.holdResponses()
        let task = Task { try await session.data(from: URL(string: "http://api.test/held")!) }
        try await session.tapedeck.waitForRequests(1)
        #expect(try await RouteLifetimeTests.eventually { session.tapedeck.heldResponses == 1 })
        task.cancel()
        await #expect(throws: URLError.self) { try await task.value }
        #expect(try await RouteLifetimeTests.eventually { session.tapedeck.heldResponses == 0 })
    }
}
