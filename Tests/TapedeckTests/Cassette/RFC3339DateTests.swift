import Foundation
import Testing
@testable import Tapedeck

@Suite("RFC 3339 dates")
struct RFC3339DateTests {
    @Test("impossible days are rejected: February 30 and 31, the 29th outside leap years, April 31", arguments: [
        "2024-02-30T00:00:00Z", "2024-02-31T10:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-06-31T00:00:00Z", "2024-09-31T00:00:00Z", "2024-11-31T00:00:00Z", "2024-01-32T00:00:00Z",
    ])
    func impossible(_ text: String) {
        #expect(RFC3339Date.parse(text) == nil)
    }

    @Test("the last day of each month parses, leap days included")
    func lastDays() {
        for text in ["2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2023-02-28T00:00:00Z", "2024-04-30T00:00:00Z",
                     "2024-12-31T23:59:59Z", "2024-01-31T00:00:00Z"] {
            #expect(RFC3339Date.parse(text).map { RFC3339Date.format($0, fractionDigits: 0) } == text)
        }
    }

    @Test("with no fraction digits it writes what ISO8601DateFormatter writes, without a formatter")
    func wholeSeconds() {
        let date = Date(timeIntervalSince1970: 1_714_557_600.4)
        #expect(RFC3339Date.format(date, fractionDigits: 0) == "2024-05-01T10:00:00Z")
        #expect(RFC3339Date.format(date, fractionDigits: 0) == ISO8601DateFormatter().string(from: date))
    }
}
