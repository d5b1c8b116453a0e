import Foundation

/// How old a recorded interaction may get before it counts as expired: `30d`, `12h`, `2w`,
/// `90m`, `45s` (`--max-age`, `TAPEDECK_MAX_AGE`).
///
/// ```swift
/// let age = try MaxAge(parsing: "30d", source: "TAPEDECK_MAX_AGE")
/// age.seconds          // 2592000
/// ```
public struct MaxAge: Sendable, Hashable, CustomStringConvertible {
    /// The limit in seconds.
    public var seconds: TimeInterval
    /// The text it was written as.
    public var description: String

    /// The environment variable giving a default limit.
    public static let environmentKey = "TAPEDECK_MAX_AGE"

    /// Parses a number followed by `s`, `m`, `h`, `d` or `w`, naming `source` in the error.
    public init(parsing text: String, source: String) throws(ExpiryError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        // Digits with at most one point: no exponent, no hexadecimal, and at most about
        // 31,700 years, so an age never overflows to no limit.
        let number = trimmed.dropLast()
        guard let unit = trimmed.last, let factor = units[unit], !number.isEmpty,
              number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), number.filter({ $0 == "." }).count <= 1,
              let count = Double(number), count > 0, count * factor <= 1e12 else {
            throw .invalidMaxAge(value: text, source: source)
        }
        seconds = count * factor
        description = trimmed
    }

    /// The limit from `TAPEDECK_MAX_AGE`, if set.
    public static func fromEnvironment(_ environment: [String: String]) throws(ExpiryError) -> MaxAge? {
        guard let text = environment[environmentKey], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try MaxAge(parsing: text, source: environmentKey)
    }

    /// `45 s`, `12 min`, `5 h`, `3 d`: an age as `cassette show` prints it.
    public static func describe(_ age: TimeInterval) -> String {
        let seconds = max(0, Int(age))
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        if seconds < 86_400 { return "\(seconds / 3600) h" }
        return "\(seconds / 86_400) d"
    }
}
