import Foundation
import Testing
@testable import Tapedeck

@Suite("Reading a cassette's fields")
struct FieldReaderTests {
    @Test("a duration written with an exponent is still read")
    func exponentDuration() throws {
        let text = MalformedCassetteTests.valid.replacingOccurrences(of: #""recordedAt""#, with: #""duration": 4.2e-3, "recordedAt""#)
        let cassette = try CassetteCodec.decode(Data(text.utf8))
        #expect(cassette.interactions.first?.response.duration == 0.0042)
    }
}
