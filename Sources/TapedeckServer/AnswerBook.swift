import NIOCore
import Synchronization

/// The answers given again (``AnswerAgain``) that the lanes of one event loop keep, by the bytes
/// of the request head that asked and the tunnel it came through: a request any connection of
/// the loop sent before is answered again, without its head being read or the handlers asked.
///
/// Used only on its loop's thread (``AnswerBooks/book(for:)``), so it takes no lock. It holds at
/// most ``maxEntries`` answers, of heads up to ``maxHead`` bytes; their bytes are those the tapes
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

    /// The most answers a book keeps.
    static let maxEntries = 1024
    /// The longest head whose answer is kept.
    static let maxHead = 4096

    /// By a hash of the head's bytes and the tunnel's origin; an entry found is compared whole.
    private var entries: [Int: Entry] = [:]
    /// The answer kept last: the newest version of the tapes any entry was asked under.
    private var newest: AnswerAgain?

    /// Whether no answer is kept (most books of a deck that does not repeat).
    var isEmpty: Bool { entries.isEmpty }

    /// How many answers are kept.
    var count: Int { entries.count }

    /// The answer kept for `head` (a whole head, its empty line included) through `tunnelOrigin`,
    /// if it still holds.
    func find(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?) -> Entry? {
        if let newest, !newest.holds { dropStale() }
        guard let entry = entries[Self.key(head, tunnelOrigin)], entry.head.count == head.count, entry.tunnelOrigin == tunnelOrigin,
              HTTPFastLane.begins(head, with: entry.head) else { return nil }
        guard entry.again.holds else {
            dropStale()
            return nil
        }
        return entry
    }

    /// Keeps `bytes`, the answer `again` marks, for `head` through `tunnelOrigin`.
    func keep(_ head: UnsafeRawBufferPointer, tunnelOrigin: String?, bytes: ByteBuffer, again: AnswerAgain) {
        guard head.count <= Self.maxHead else { return }
        // Asked under another version of the tapes than the last: those kept before may not hold.
        if let newest, newest.seen != again.seen { dropStale() }
        if entries.count >= Self.maxEntries, let any = entries.keys.first { entries.removeValue(forKey: any) }
        entries[Self.key(head, tunnelOrigin)] = Entry(head: Array(head), tunnelOrigin: tunnelOrigin, bytes: bytes, again: again)
        newest = again
    }

    /// Lets go of the answers that stopped holding.
    private func dropStale() {
        entries = entries.filter { $0.value.again.holds }
        if let newest, !newest.holds { self.newest = nil }
    }

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
        return Int(bitPattern: UInt(truncatingIfNeeded: hash))
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
