import Foundation
import Synchronization
import Tapedeck
import TapedeckTestSupport
import Testing
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A weak reference, to see that what a dropped session held is freed.
private struct WeakBox<T: AnyObject>: @unchecked Sendable {
    weak var value: T?
}

@Suite("Route lifetimes")
struct RouteLifetimeTests {
    static let url = URL(string: "http://api.test/who")!
    static let cassette = Cassette(interactions: [Interaction(
        request: HTTPRequest(url: url), response: HTTPResponse(status: 200, body: Data("who".utf8)))])

    /// Polls `condition` until it holds; the deadline only ends a test that is failing anyway.
    static func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    @Test("10,000 sessions made and dropped leave the routing table flat and free the cassettes they held")
    func madeAndDropped() async throws {
        let before = TapedeckRoutes.usage.taken
        var numbers = Set<Int>()
        var replays: [WeakBox<ReplayTransport>] = []
        for index in 0..<10_000 {
            let replay = ReplayTransport(cassette: Self.cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), allowRepeats: true))
            replays.append(WeakBox(value: replay))
            let session: URLSession = switch index % 4 {
            case 0: URLSession.replaying(replay)
            case 1: URLSession.stubbing { _ in .text("stub") }
            case 2: URLSession.recording(try RecordingTransport(
                configuration: CassetteConfiguration(TestScratch.path("unused").appendingPathExtension("json"), mode: .all, environment: [:]),
                inner: StubTransport { _ in HTTPResponse(status: 500) }))
            default: URLSession.cassette
            }
            numbers.insert(try #require(TapedeckRoutes.routeID(of: session)))
            if index % 500 == 0 {
                if index % 4 == 0 { _ = try await session.data(from: Self.url) }
                #expect(session.tapedeck.sentRequests.count == (index % 4 == 0 ? 1 : 0))
            }
            #if canImport(Darwin)
            // Apple's URLSession keeps itself alive until invalidated (corelibs frees it when dropped).
            session.finishTasksAndInvalidate()
            #endif
        }
        // Route numbers are reused, so the protocol classes made stay few; the table holds only
        // the routes of sessions still alive (these tests' and any running beside them).
        #expect(numbers.count < 100, "\(numbers.count) route numbers for 10,000 sequential sessions")
        #expect(try await Self.eventually { replays.allSatisfy { $0.value == nil } },
                "\(replays.count { $0.value != nil }) cassettes still held")
        #expect(try await Self.eventually { TapedeckRoutes.usage.taken <= before + 50 },
                "table holds \(TapedeckRoutes.usage.taken) routes (\(before) before)")
    }

    @Test("invalidating a session frees its route even while the session object is kept")
    func invalidated() async throws {
        var sessions: [(URLSession, Int)] = []
        for _ in 0..<50 {
            let session = URLSession.stubbing { _ in .status(204) }
            _ = try await session.data(from: Self.url)
            sessions.append((session, try #require(TapedeckRoutes.route(of: session)?.serial)))
            session.finishTasksAndInvalidate()
        }
        #expect(try await Self.eventually {
            sessions.allSatisfy { session, serial in TapedeckRoutes.route(of: session)?.serial != serial }
        })
        withExtendedLifetime(sessions) {}
    }

    @Test("a route removed while its session lives keeps its number, so a stray request fails instead of reaching a newer session")
    func removedKeepsNumber() async throws {
        let old = URLSession.stubbing { _ in .text("old") }
        TapedeckRoutes.remove(old)
        var newer: [URLSession] = []
        for _ in 0..<20 { newer.append(URLSession.stubbing { _ in .text("new") }) }
        let oldID = try #require(TapedeckRoutes.routeID(of: old))
        #expect(newer.allSatisfy { TapedeckRoutes.routeID(of: $0) != oldID })
        do {
            _ = try await old.data(from: Self.url)
            Issue.record("a removed route answered")
        } catch let error as TapedeckTestingError {
            #expect(error.description.contains("cassette session already ended"))
        }
    }
}
