/// Bytes written in place at the end of memory of their own, for ``JSONWriter``: an append
/// costs a bounds check and a copy. An array's append (a uniqueness check, a capacity check
/// and a call for each piece, a hundred or so pieces for each interaction journaled) cost
/// more than the rest of the writing.
///
/// A copy shares the memory until either one writes (then the writer copies first), as an
/// array would.
struct ByteOutput {
    /// The memory. Only its owner's lifetime and identity are read from here: the base,
    /// count and capacity live in the struct, where no access is checked at run time.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        init(capacity: Int) { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    /// Creates an empty output with room for `capacity` bytes.
    init(capacity: Int = 64) {
        self.capacity = Swift.max(capacity, 16)
        storage = Storage(capacity: self.capacity)
        base = storage.base
    }

    /// Makes room for `extra` more bytes in memory this output alone holds.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity || !isKnownUniquelyReferenced(&storage) { move(room: extra) }
    }

    /// Copies the bytes to new memory with room for `extra` more (at least twice the old).
    private mutating func move(room extra: Int) {
        let larger = Swift.max(capacity * 2, count + extra)
        let moved = Storage(capacity: larger)
        moved.base.initialize(from: base, count: count)
        storage = moved
        base = moved.base
        capacity = larger
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends `bytes` between double quotes (a JSON string with nothing to escape).
    mutating func append(quoted bytes: UnsafeBufferPointer<UInt8>) {
        reserve(bytes.count + 2)
        base[count] = UInt8(ascii: "\"")
        if let source = bytes.baseAddress, !bytes.isEmpty { (base + count + 1).initialize(from: source, count: bytes.count) }
        base[count + 1 + bytes.count] = UInt8(ascii: "\"")
        count += bytes.count + 2
    }

    /// Appends a line break and `spaces` spaces (a pretty document's next line).
    mutating func appendLineBreak(indentedBy spaces: Int) {
        let spaces = Swift.max(0, spaces)
        reserve(spaces + 1)
        base[count] = UInt8(ascii: "\n")
        (base + count + 1).initialize(repeating: UInt8(ascii: " "), count: spaces)
        count += spaces + 1
    }

    /// Appends a literal's bytes.
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8.
    mutating func append(_ text: String) {
        ByteSearch.withBytes(of: text) { append($0) }
    }

    /// Drops the bytes from `start` on.
    mutating func removeAll(from start: Int) {
        count = Swift.min(count, Swift.max(0, start))
    }

    /// Calls `body` with the bytes written (valid only inside it).
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: base, count: count)) }
    }

    /// The bytes written, as an array.
    var array: [UInt8] { withBytes { Array($0) } }
}
