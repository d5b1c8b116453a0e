import Foundation
import Tapedeck
import TapedeckTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The README's "Open a cassette your own way" example, run as written.
@Suite("Opening a cassette from a CassetteConfiguration")
struct CassetteConfigurationExampleTests {
    @Test("a configuration opened by hand replays with the matcher, repeats and latency it names")
    func readmeExample() async throws {
        var cassette = CassetteConfiguration(Cassettes.url("httpbin"), mode: .replayOnly, followRedirects: true)
        cassette.matcher = Matcher(ignoredQueryItems: ["ts"])
        cassette.allowRepeats = true
        cassette.conditions = NetworkConditions(latency: .fixed(milliseconds: 20))
        let opened = try cassette.open()
        let session = URLSession.session(for: opened)
        let slideshow = try await HTTPBinClient(session: session).slideshow()
        #expect(slideshow.title == "Sample Slide Show")
        #expect(opened.counts.played == 1)
        #expect(opened.recorder == nil, "replay only: no recorder, no journal, no lock")
    }
}
