import Foundation

/// How large a body Tapedeck accepts from outside (a server, a cassette from a colleague), and
/// how far a compressed body may expand when it is decoded, so a huge response or a
/// decompression bomb ends in an error that names the limit instead of exhausting memory.
///
/// ```swift
/// var limits = BodyLimits()
/// limits.maximumBodySize = 512 * 1024 * 1024   // accept bodies up to 512 MiB
/// ```
public struct BodyLimits: Sendable, Hashable {
    /// The largest body, in bytes, after decoding: 100 MiB unless changed.
    public var maximumBodySize: Int
    /// How many times its compressed size a decoded body may be, once it is past
    /// ``ratioFloor`` bytes: 200 unless changed (a gzip bomb expands about 1,000 times).
    public var maximumExpansionRatio: Int
    /// Decoded bodies up to this size are never refused for their ratio: 1 MiB.
    public var ratioFloor: Int

    /// Creates limits; the defaults suit API traffic.
    public init(maximumBodySize: Int = 100 * 1024 * 1024, maximumExpansionRatio: Int = 200, ratioFloor: Int = 1024 * 1024) {
        self.maximumBodySize = maximumBodySize
        self.maximumExpansionRatio = maximumExpansionRatio
        self.ratioFloor = ratioFloor
    }

    /// The decoded size a body of `compressedSize` bytes may reach.
    package func decodedLimit(compressedSize: Int) -> Int {
        let (byRatio, overflow) = compressedSize.multipliedReportingOverflow(by: maximumExpansionRatio)
        return min(maximumBodySize, max(ratioFloor, overflow ? Int.max : byRatio))
    }
}

/// Byte counts as people read them: `512 bytes`, `1.5 KiB`, `100 MiB`.
package enum ByteCount {
    package static func describe(_ bytes: Int) -> String {
        let units = ["KiB", "MiB", "GiB", "TiB"]
        guard bytes >= 1024 else { return "\(bytes) bytes" }
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let number = value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
        return "\(number) \(units[unit])"
    }
}
