/// Writes an HTTP head into memory sized for it beforehand: each piece is copied whole, where a
/// write of each piece to a `ByteBuffer` (or an append to an array) cost more than the rest of
/// the encoding (``HTTPFastLane/encode(_:isHead:keepAlive:allocator:)``,
/// ``UpstreamTransport/wireHead(of:origin:allocator:)``).
struct HeadWriter {
    let raw: UnsafeMutableRawBufferPointer
    private(set) var count = 0
    /// Whether a piece did not fit whole: what was written is then cut short.
    private(set) var overflowed = false

    init(_ raw: UnsafeMutableRawBufferPointer) { self.raw = raw }

    /// Copies `bytes`, as far as there is room (the room is worked out to be enough).
    private mutating func put(_ bytes: UnsafeRawBufferPointer) {
        let length = min(bytes.count, raw.count - count)
        if length < bytes.count { overflowed = true }
        guard length > 0, let source = bytes.baseAddress, let target = raw.baseAddress else { return }
        target.advanced(by: count).copyMemory(from: source, byteCount: length)
        count += length
    }

    mutating func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put(UnsafeRawBufferPointer($0)) }
    }

    /// One header line: `name: value` and its CRLF.
    mutating func putField(_ name: String, _ value: String) {
        put(name)
        put(": ")
        put(value)
        put("\r\n")
    }

    /// `value`'s decimal digits; a negative value is written as 0.
    mutating func putDecimal(_ value: Int) {
        let value = max(0, value)
        if value >= 10 { putDecimal(value / 10) }
        guard count < raw.count else {
            overflowed = true
            return
        }
        raw[count] = UInt8(ascii: "0") + UInt8(value % 10)
        count += 1
    }
}
