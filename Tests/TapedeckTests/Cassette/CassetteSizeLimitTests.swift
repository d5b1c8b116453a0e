import Foundation
import Testing
@testable import Tapedeck

@Suite("Cassette size limit")
struct CassetteSizeLimitTests {
    @Test("a cassette file over maximumFileSize is refused before it is read, naming its size and the limit", arguments: ["c.cassette.json", "c.yaml", "c.har"])
    func refused(name: String) throws {
        let directory = TemporaryDirectory()
        let url = directory.file(name)
        let cassette = Cassette(interactions: [.make(body: String(repeating: "x", count: 4096))])
        try cassette.write(to: url, format: try #require(CassetteFormat(for: url)))
        #expect(try Cassette.load(from: url).interactions.count == 1)
        do {
            _ = try Cassette.load(from: url, maximumFileSize: 1024)
            Issue.record("a cassette over the limit was read")
        } catch {
            guard case .unreadable(let path, let reason) = error else { throw error }
            #expect(path == url.path)
            #expect(reason.contains("KiB, larger than the 1 KiB a cassette may be"), "\(reason)")
        }
    }
}
