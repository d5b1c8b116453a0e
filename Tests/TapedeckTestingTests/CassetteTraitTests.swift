import Foundation
import Testing
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The .cassette trait")
struct CassetteTraitTests {
    @Test("a test with .cassette(\"httpbin\") reads URLSession.cassette, replayed from __Cassettes__ next to this file",
          .cassette("httpbin", mode: .replayOnly))
    func replaysThroughTheTrait() async throws {
        let client = try HTTPBinClient(session: .cassette)
        #expect(try await client.slideshow().title == "Sample Slide Show")
        #expect(try await client.uuid().count == 36)
    }

    @Test("an unmatched request in a trait test names this test in the swift test --filter fix",
          .cassette("httpbin", mode: .replayOnly))
    func namesThisTest() async throws {
        do {
            _ = try await URLSession.cassette.data(for: URLRequest(url: URL(string: "http://httpbin.local/nope")!))
            Issue.record("an unmatched request was answered")
        } catch {
            #expect("\(error)".hasSuffix("  - record it: TAPEDECK_RECORD_MODE=new swift test --filter namesThisTest"), "\(error)")
            #expect("\(error)".contains("(4 interactions, mode none)"), "\(error)")
            // swift test runs in the package root, so the path reads as the user would type it.
            #expect("\(error)".contains("\ncassette: Tests/TapedeckTestingTests/__Cassettes__/httpbin.cassette.json ("), "\(error)")
        }
    }

    @Test("mode: .replayOnly pins replay-only (not an Optional's nil, which would mean the default mode)")
    func modeNoneIsReplayOnly() {
        let pinned: CassetteTrait = .cassette("httpbin", mode: .replayOnly)
        #expect(pinned.mode == RecordMode.replayOnly)
        let unpinned: CassetteTrait = .cassette("httpbin")
        #expect(unpinned.mode == nil)
    }

    @Test("URLSession.cassette outside a trait fails each request, saying to add the trait")
    func outsideTheTrait() async throws {
        do {
            _ = try await URLSession.cassette.data(for: URLRequest(url: URL(string: "http://httpbin.local/json")!))
            Issue.record("a request without a cassette trait was answered")
        } catch {
            #expect(error.localizedDescription == "request to http://httpbin.local/json went through URLSession.cassette outside "
                + "a cassette trait; add .cassette(\"name\") to the test: @Test(.cassette(\"name\"))")
        }
    }
}

/// On a suite, every test gets a session of its own on the cassette, so each may play the same interaction.
@Suite("The .cassette trait on a suite", .cassette("httpbin", mode: .replayOnly))
struct CassetteSuiteTraitTests {
    @Test("the first test plays /json")
    func first() async throws {
        #expect(try await HTTPBinClient(session: .cassette).slideshow().author == "Yours Truly")
    }

    @Test("the second test plays /json again from a fresh session")
    func second() async throws {
        #expect(try await HTTPBinClient(session: .cassette).slideshow().author == "Yours Truly")
    }
}
