import NIOCore
import Synchronization

/// The answers given again (``AnswerAgain``) that the lanes of one event loop keep, by the bytes
/// of the request head that asked and the tunnel it came through: a request any connection of
/// the loop sent before is answered again, without its head being read or the handlers asked.
///
/// Used only on its loop's thread (``AnswerBooks/book(for:)``), so it takes no lock. It holds at
/// most ``slotCount`` answers, of heads up to ``maxHead`` bytes; their bytes are those the tapes
/// hold (``WireForms``). Answers that stopped holding (the tapes changed) are let go of at the
/// first request after the change.
final class AnswerBook: @unchecked Sendable {
    /// One answer kept: the head that asked, the tunnel's origin (nil outside one), the bytes.
    final class Entry {
        let head: [UInt8]
        let tunnelOrigin: String?
        let bytes: ByteBuffer
        let again: AnswerAgain

        init(head: [UInt8], tunnelOrigin: String?, bytes: ByteBuffer, again: AnswerAgain) {
            self.head = head
            self.tunnelOrigin = tunnelOrigin
            self.bytes = bytes
            self.again = again
        }
    }

    /// The most answers a book keeps: one in each of its slots.
    static let slotCount = 1024
    /// The longest head whose answer is kept.
    static let maxHead = 4096

    /// The answers kept, each in the slot of its head's hash (``key(_:_:)``); a newer answer for
    /// the same slot takes it.
    private var slots = [Entry?](repeating: nil, count: slotCount)
    /// The hash of the head last answered in each slot and not kept: an answer is kept only when
    /// its head comes a second time, so requests that never repeat (each with an id of its own)
    /// cost a hash, not a copy of their head.
    private var seen = [Int](repeating: 0, count: slotCount)
    /// The answer kept last: the newest version of the tapes any entry was asked under.
    private var newest: AnswerAgain?
    /// How many answers are kept.
    private(set) var count = 0

    /// Whether no answer is kept (the books of a deck that does not repeat stay so).
    var isEmpty: Bool { count == 0 }

    /// The answer kept for `head` (a whole head, its empty line included) through `tunnelOrigin`,
    /// if it still holds.
    func find(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?) -> Entry? {
        if let newest, !newest.holds { dropStale() }
        let key = Self.key(head, tunnelOrigin)
        guard let entry = slots[Self.slot(key)], entry.head.count == head.count, entry.tunnelOrigin == tunnelOrigin,
              HTTPFastLane.begins(head, with: entry.head) else { return nil }
        guard entry.again.holds else {
            dropStale()
            return nil
        }
        return entry
    }

    /// Keeps `bytes`, the answer `again` marks, for `head` through `tunnelOrigin`, once the same
    /// head has come twice.
    func keep(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?, bytes: ByteBuffer, again: AnswerAgain) {
        guard head.count <= Self.maxHead else { return }
        let key = Self.key(head, tunnelOrigin), slot = Self.slot(key)
        guard seen[slot] == key else {
            seen[slot] = key
            return
        }
        // Asked under another version of the tapes than the last: those kept before may not hold.
        if let newest, newest.seen != again.seen { dropStale() }
        if slots[slot] == nil { count += 1 }
        slots[slot] = Entry(head: Array(head), tunnelOrigin: tunnelOrigin, bytes: bytes, again: again)
        newest = again
    }

    /// Lets go of the answers that stopped holding.
    private func dropStale() {
        for index in slots.indices where slots[index].map({ !$0.again.holds }) ?? false {
            slots[index] = nil
            count -= 1
        }
        if let newest, !newest.holds { self.newest = nil }
    }

    private static func slot(_ key: Int) -> Int { (key >> 20) & (slotCount - 1) }

    /// A hash of `head`'s bytes, eight at a time, and of the tunnel's origin: it only picks the
    /// entry to compare, so heads made to collide cost a client its own answers given again,
    /// never a wrong answer, and it need not be seeded.
    static func key(_ head: UnsafeRawBufferPointer, _ tunnelOrigin: String?) -> Int {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(head.count)
        func mix(_ word: UInt64) {
            hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        var offset = 0
        while offset + 8 <= head.count {
            mix(head.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var last: UInt64 = 0
        while offset < head.count {
            last = last << 8 | UInt64(head[offset])
            offset += 1
        }
        mix(last)
        if let tunnelOrigin { mix(UInt64(bitPattern: Int64(tunnelOrigin.hashValue))) }
        hash = (hash ^ hash >> 32) &* 0x94D0_49BB_1331_11EB
        hash ^= hash >> 29
        // Never 0, which ``seen`` holds for no head; the slot is read from higher bits.
        return Int(bitPattern: UInt(truncatingIfNeeded: hash | 1))
    }
}

/// The ``AnswerBook`` of each event loop a listener's connections run on, made on first use.
final class AnswerBooks: Sendable {
    private let books = Mutex<[ObjectIdentifier: AnswerBook]>([:])

    /// The book of `loop`, for the lanes that run on it to use there only.
    func book(for loop: any EventLoop) -> AnswerBook {
        books.withLock { books in
            let id = ObjectIdentifier(loop)
            if let book = books[id] { return book }
            let made = AnswerBook()
            books[id] = made
            return made
        }
    }
}
