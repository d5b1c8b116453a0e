/// A set of ASCII bytes as 128 bits: a membership test is a shift and a mask, one load a byte
/// in the loops that read every byte of a header name or a URL.
///
/// A set used on a hot path is written as its two words (``init(low:high:)``), so it is a
/// constant rather than built on first use; a test holds each such set to the characters it
/// stands for (``init(_:)``).
package struct ASCIISet: Sendable, Hashable {
    /// Bit N for byte N, below 64.
    private var low: UInt64
    /// Bit N for byte 64 + N, from 64 to 127.
    private var high: UInt64

    /// The empty set.
    package init() {
        low = 0
        high = 0
    }

    /// The set whose bytes are the bits of `low` (bytes below 64) and of `high` (64 to 127).
    package init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// The set of `characters`' bytes (those past ASCII are left out).
    package init(_ characters: String) {
        self.init()
        for byte in characters.utf8 { insert(byte) }
    }

    /// Adds `byte` (bytes past ASCII are never members).
    package mutating func insert(_ byte: UInt8) {
        if byte < 64 { low |= 1 << UInt64(byte) } else if byte < 128 { high |= 1 << UInt64(byte - 64) }
    }

    /// Whether `byte` is a member.
    package func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low >> UInt64(byte) & 1 == 1 : byte < 128 && high >> UInt64(byte - 64) & 1 == 1
    }
}
