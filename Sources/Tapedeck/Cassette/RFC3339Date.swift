import Foundation

/// RFC 3339 timestamps, the one date format of every file Tapedeck reads or writes: native
/// cassettes (milliseconds), HAR, vcrpy metadata and usage records (microseconds).
///
/// Reading accepts any number of fractional digits, `T`, `t` or a space between date and
/// time, and `Z` or a `±hh:mm` / `±hhmm` offset (none means UTC). Writing is always UTC with
/// a `Z`, computed by hand so the text never depends on the locale or the Foundation version.
///
/// ```swift
/// RFC3339Date.parse("2024-05-01T12:00:00.5+02:00")                   // 2024-05-01 10:00:00.5 UTC
/// RFC3339Date.format(date, fractionDigits: 3)                        // "2024-05-01T10:00:00.500Z"
/// ```
package enum RFC3339Date {
    /// Parses `2024-05-01T12:00:00.123456+02:00`, `…Z`, `…+0200` or no fraction at all; nil
    /// for anything else (including month 13, February 30 or hour 24).
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(parse)
    }

    /// ``parse(_:)`` of UTF-8 bytes, read in place.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var index = 0
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for offset in index..<index + digits {
                guard isDigit(bytes[offset]) else { return nil }
                value = value * 10 + Int(bytes[offset] - 0x30)
            }
            index += digits
            return value
        }
        func expect(_ byte: UInt8, or other: UInt8? = nil, or third: UInt8? = nil) -> Bool {
            guard index < bytes.count, bytes[index] == byte || bytes[index] == other || bytes[index] == third else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2), expect(UInt8(ascii: "-")), let day = number(2),
              expect(UInt8(ascii: "T"), or: UInt8(ascii: "t"), or: UInt8(ascii: " ")), let hour = number(2), expect(UInt8(ascii: ":")),
              let minute = number(2), expect(UInt8(ascii: ":")), let second = number(2) else { return nil }
        // Up to nanoseconds are kept exactly as an integer; further digits are ignored.
        var nanoseconds = 0
        if expect(UInt8(ascii: ".")) {
            let start = index
            var scale = 100_000_000
            while index < bytes.count, isDigit(bytes[index]) {
                nanoseconds += Int(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if !expect(UInt8(ascii: "Z"), or: UInt8(ascii: "z")), index < bytes.count,
           bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(2) else { return nil }
            _ = expect(UInt8(ascii: ":"))
            guard let minutes = number(2) else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == bytes.count, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// `2024-05-01T10:00:00.123Z` with `fractionDigits` 3, `….123456Z` with 6 (rounded to
    /// the nearest unit; 0 gives no fraction).
    package static func format(_ date: Date, fractionDigits: Int) -> String {
        let digits = min(max(fractionDigits, 0), 9)
        var unitsPerSecond: Int64 = 1
        for _ in 0..<digits { unitsPerSecond *= 10 }
        let units = Int64((date.timeIntervalSince1970 * Double(unitsPerSecond)).rounded())
        let (seconds, fraction) = floorDivision(units, unitsPerSecond)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        // Written as bytes: every recorded interaction and every one a cassette writes has a
        // date, and building it from interpolated strings cost ten times as much.
        var text: [UInt8] = []
        text.reserveCapacity(32)
        appendPadded(year, 4, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(month, 2, to: &text)
        text.append(UInt8(ascii: "-"))
        appendPadded(day, 2, to: &text)
        text.append(UInt8(ascii: "T"))
        appendPadded(secondOfDay / 3600, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay / 60 % 60, 2, to: &text)
        text.append(UInt8(ascii: ":"))
        appendPadded(secondOfDay % 60, 2, to: &text)
        if digits > 0 {
            text.append(UInt8(ascii: "."))
            appendPadded(fraction, digits, to: &text)
        }
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `value` in decimal with zeros before it up to `width` characters, as `String(value)`
    /// left-padded with zeros (a sign, which only a year before 1 BC has, comes after the zeros).
    static func appendPadded(_ value: Int64, _ width: Int, to text: inout [UInt8]) {
        let magnitude = value.magnitude
        var length = 1
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 {
            divisor *= 10
            length += 1
        }
        for _ in 0..<max(0, width - length - (value < 0 ? 1 : 0)) { text.append(UInt8(ascii: "0")) }
        if value < 0 { text.append(UInt8(ascii: "-")) }
        // Digits from the most significant down, each appended in place.
        while divisor > 0 {
            text.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// `date` rounded to the nearest millisecond, as native cassettes store it, so decoding and
    /// re-encoding gives the same bytes.
    static func roundedToMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }

    /// 28 to 31: the length of `month` in `year` of the proleptic Gregorian calendar.
    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm, proleptic Gregorian calendar).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of ``daysFromCivil(year:month:day:)``.
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
