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

    @Test("each accepted spelling reads to the same instant", arguments: [
        "2024-05-01T10:00:00.5Z", "2024-05-01t10:00:00.5z", "2024-05-01 10:00:00.500Z", "2024-05-01T12:00:00.5+02:00",
        "2024-05-01T12:00:00.5+0200", "2024-05-01T08:30:00.5-01:30", "2024-05-01T10:00:00.5000000009Z", "2024-05-01T10:00:00.5",
    ])
    func spellings(_ text: String) {
        #expect(RFC3339Date.parse(text) == Date(timeIntervalSince1970: 1_714_557_600.5), "\(text)")
    }

    @Test("a malformed date is refused", arguments: [
        "2024-05-01T10:00:00.Z", "2024-05-01X10:00:00Z", "2024-05-01T10:00:00Zjunk", "2024-5-01T10:00:00Z", "2024-05-01T24:00:00Z",
        "2024-05-01T10:60:00Z", "2024-13-01T10:00:00Z", "2024-05-01T10:00:00+2", "", "2024-05-01",
    ])
    func malformed(_ text: String) {
        #expect(RFC3339Date.parse(text) == nil, "\(text)")
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

    @Test("dates are written as zero-padded text, the same as from String(value), at every fraction width, before 1970 and past 9999 too")
    func writtenAsPaddedText() {
        func padded(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        for (value, width) in [(Int64(0), 2), (7, 2), (59, 2), (2024, 4), (12345, 4), (5, 9), (123_456_789, 9), (-5, 4), (-1234, 4)] {
            var text: [UInt8] = []
            RFC3339Date.appendPadded(value, width, to: &text)
            #expect(String(decoding: text, as: UTF8.self) == padded(value, width), "\(value) in \(width)")
        }
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 1_714_557_600.1234567), fractionDigits: 3) == "2024-05-01T10:00:00.123Z")
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 1_714_557_600.1234567), fractionDigits: 6) == "2024-05-01T10:00:00.123457Z")
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: -1.5), fractionDigits: 1) == "1969-12-31T23:59:58.5Z")
        #expect(RFC3339Date.format(Date(timeIntervalSince1970: 253_402_300_800), fractionDigits: 0) == "10000-01-01T00:00:00Z")
        for seconds in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 864_001.123) {
            let date = Date(timeIntervalSince1970: seconds)
            for digits in [0, 3, 6] {
                #expect(RFC3339Date.parse(RFC3339Date.format(date, fractionDigits: digits)).map { RFC3339Date.format($0, fractionDigits: digits) }
                    == RFC3339Date.format(date, fractionDigits: digits))
            }
        }
    }
}
