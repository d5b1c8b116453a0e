import Foundation
import Testing
@testable import Tapedeck
import TapedeckTooling

@Suite("Cassette expiry")
struct CassetteExpiryTests {
    @Test("ages parse as a number and a unit; anything else names the fix")
    func parsing() throws {
        #expect(try MaxAge(parsing: "30d", source: "--max-age").seconds == 30 * 86_400)
        #expect(try MaxAge(parsing: "12h", source: "--max-age").seconds == 12 * 3600)
        #expect(try MaxAge(parsing: "2w", source: "--max-age").seconds == 14 * 86_400)
        #expect(try MaxAge(parsing: "1.5m", source: "--max-age").seconds == 90)
        #expect(throws: ExpiryError.invalidMaxAge(value: "30 days", source: "--max-age")) { try MaxAge(parsing: "30 days", source: "--max-age") }
        for text in ["1e305w", "0x10d", "1..5d", "d", "99999999999w"] {
            #expect(throws: ExpiryError.invalidMaxAge(value: text, source: "--max-age")) { try MaxAge(parsing: text, source: "--max-age") }
        }
        #expect(throws: ExpiryError.invalidMaxAge(value: "-1d", source: MaxAge.environmentKey)) {
            try MaxAge.fromEnvironment([MaxAge.environmentKey: "-1d"])
        }
        #expect(try ExpiryPolicy.resolve(nil, environment: [:]) == .warn)
        #expect(try ExpiryPolicy.resolve(nil, environment: [ExpiryPolicy.environmentKey: "Rerecord"]) == .rerecord)
        #expect(throws: ExpiryError.invalidPolicy(value: "skip", source: "--on-expiry")) { try ExpiryPolicy(parsing: "skip", source: "--on-expiry") }
    }

    @Test("only interactions older than the limit expire, each with its age")
    func expired() throws {
        let now = Date(timeIntervalSince1970: 2_000_000_000)
        let make = { (days: Double, path: String) in
            Interaction(request: HTTPRequest(url: URL(string: "http://api.test/\(path)")!), response: HTTPResponse(status: 200),
                        recordedAt: now.addingTimeInterval(-days * 86_400))
        }
        let cassette = Cassette(interactions: [make(2, "fresh"), make(45, "old"), make(31, "older?api_key=sk_live_abcdefghijklmnop1234")])
        let expiry = CassetteExpiry(cassette, maxAge: try MaxAge(parsing: "30d", source: "--max-age"), now: now)
        #expect(expiry.expired.map(\.index) == [1, 2])
        let report = expiry.report(path: "api.cassette.json", total: 3)
        #expect(report.contains("2 of 3 interactions in api.cassette.json are older than 30d:"))
        #expect(report.contains("#1 GET http://api.test/old (recorded 45 d ago)"))
        #expect(report.contains("#2 GET http://api.test/older?api_key=%3CREDACTED%3E (recorded 31 d ago)"), "a URL is shown redacted: \(report)")
        #expect(CassetteTable.render(cassette, now: now).contains("45 d"))
    }
}
