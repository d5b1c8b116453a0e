import Foundation
import NIOCore
import Synchronization

/// The answers given again (``AnswerAgain``) that the lanes of one event loop keep, by the bytes
/// of the request head that asked and the tunnel it came through: a request any connection of
/// the loop sent twice before is answered again, without its head being parsed or the handlers
/// asked (it is found by a hash of its bytes and compared whole).
///
/// Used only on its loop's thread (``AnswerBooks/book(for:)``), so it takes no lock; debug builds
/// check it. It holds at most ``slotCount`` answers, of heads up to ``maxHead`` bytes; their bytes
/// are those the tapes hold (``WireForms``). Answers that stopped holding (the tapes changed) are
/// let go of on the loop as soon as the change is made (``AnswerBooks/dropStale()``).
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
    /// The loop whose lanes use the book.
    let loop: any EventLoop

    /// An empty book for the lanes of `loop`.
    init(loop: any EventLoop) {
        self.loop = loop
    }
    /// How many answers are kept.
    private(set) var count = 0

    /// Whether no answer is kept (the books of a deck that does not repeat stay so).
    var isEmpty: Bool { count == 0 }

    /// The answer kept for `head` (a whole head, its empty line included) through `tunnelOrigin`,
    /// if it still holds.
    func find(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?) -> Entry? {
        loop.assertInEventLoop()
        if let newest, !newest.holds { dropStale() }
        let key = Self.key(head, tunnelOrigin)
        guard let entry = slots[Self.slot(key)], entry.head.count == head.count, entry.tunnelOrigin == tunnelOrigin,
              Self.begins(head, with: entry.head) else { return nil }
        guard entry.again.holds else {
            dropStale()
            return nil
        }
        return entry
    }

    /// Keeps `bytes`, the answer `again` marks, for `head` through `tunnelOrigin`, once the same
    /// head has come twice in a row among those whose hash picks its slot (two heads that share
    /// a slot and alternate are not kept, and are answered as any other).
    func keep(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?, bytes: ByteBuffer, again: AnswerAgain) {
        loop.assertInEventLoop()
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
    func dropStale() {
        loop.assertInEventLoop()
        for index in slots.indices where slots[index].map({ !$0.again.holds }) ?? false {
            slots[index] = nil
            count -= 1
        }
        if let newest, !newest.holds { self.newest = nil }
    }

    /// Whether `bytes` begin with `head`'s bytes.
    static func begins(_ bytes: UnsafeRawBufferPointer, with head: [UInt8]) -> Bool {
        guard head.count <= bytes.count else { return false }
        return head.withUnsafeBytes { head in
            guard let start = head.baseAddress, let other = bytes.baseAddress else { return head.isEmpty }
            return memcmp(start, other, head.count) == 0
        }
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
