import Foundation
import TapedeckTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a user's XCTest suite looks like: the typed client replays the committed httpbin
/// cassette, with no server. (XCTest and Swift Testing run together in `swift test`.)
final class HTTPBinClientXCTests: XCTestCase {
    func testReplayingDrivesTheTypedClient() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        let client = try HTTPBinClient(session: session)
        let slideshow = try await client.slideshow()
        XCTAssertEqual(slideshow.title, "Sample Slide Show")
        XCTAssertEqual(slideshow.slides.map(\.title), ["Wake up to WonderWidgets!", "Overview"])
        let echo = try await client.echo(["name": "Ada"])
        XCTAssertEqual(echo.json, ["name": "Ada"])
    }

    func testWithCassetteReplays() async throws {
        let title = try await withCassette("httpbin", mode: .replayOnly) { session in
            try await HTTPBinClient(session: session).slideshow().title
        }
        XCTAssertEqual(title, "Sample Slide Show")
    }

    func testUnmatchedRequestThrowsTheReport() async throws {
        let session = try URLSession.replaying(Cassettes.url("httpbin"))
        do {
            _ = try await session.data(for: URLRequest(url: URL(string: "http://httpbin.local/json?page=2")!))
            XCTFail("an unmatched request was answered")
        } catch {
            // What XCTest prints for a thrown error ("threw error \"…\"") and what app code logs.
            for text in [error.localizedDescription, "\(error)"] {
                XCTAssertTrue(text.hasPrefix("no recorded interaction matches GET http://httpbin.local/json?page=2\n"), text)
                XCTAssertTrue(text.contains("nearest recorded interactions (recorded → sent):\n  1. #"), text)
                XCTAssertTrue(text.contains("query page: (absent) → \"2\""), text)
                XCTAssertTrue(text.hasSuffix("then run TAPEDECK_RECORD_MODE=new swift test --filter TEST_NAME"), text)
            }
        }
    }
}
