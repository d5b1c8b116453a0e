import NIOCore
import Synchronization
import Tapedeck

/// The bytes of a tape's replayed answers, encoded once each.
///
/// A replay server gives the same recorded responses again and again, and writing one's head
/// (checking each field, framing the body, copying it) cost more than finding it. A form is the
/// answer as ``HTTPFastLane`` writes it to an HTTP/1.1 request other than `HEAD` on a connection
/// that stays open (``HTTPFastLane/encode(_:isHead:keepAlive:allocator:)``, so the bytes are the
/// same by construction); other answers are encoded as they are written.
///
/// A form is held for the life of the tape, whose cassette does not change while it replays.
/// Bodies over ``largestBody`` are not held, nor any form once the deck's ``WireBudget`` is
/// spent: a client that walks large cassettes costs no more memory than that (a random walk over
/// 100,000 interactions raised `serve`'s peak RSS from 130 to 180 MB with a budget of 32 MB).
final class WireForms: Sendable {
    /// The memory the forms of every tape of the deck may take together.
    let budget: WireBudget
    /// The longest body a held form has.
    let largestBody: Int

    private struct Held {
        var forms: [Int: ByteBuffer] = [:]
        var bytes = 0
    }

    private let held = Mutex(Held())

    /// Creates an empty set of forms, within `budget`, of bodies up to `largestBody` bytes.
    init(budget: WireBudget, largestBody: Int = 64 << 10) {
        self.budget = budget
        self.largestBody = largestBody
    }

    /// The form of `response`, the answer of the interaction at `position`: the one held, or
    /// encoded now (and held, within the limits); nil when its body is over ``largestBody``.
    /// `held` says whether it is held, not encoded for one answer only: a form that is held may
    /// be kept elsewhere too (``AnswerAgain``) without adding to the memory the forms take.
    func form(at position: Int, of response: HTTPResponse) -> (bytes: ByteBuffer, held: Bool)? {
        if let known = held.withLock({ $0.forms[position] }) { return (known, true) }
        guard response.body.count <= largestBody else { return nil }
        let encoded = HTTPFastLane.encode(response, isHead: false, keepAlive: true, allocator: Self.allocator)
        // Once the budget is spent, a form is what the lane would have encoded anyway.
        guard encoded.readableBytes <= budget.room else { return (encoded, false) }
        // Held copied out of the room the encoding reserved for the longest head.
        var form = Self.allocator.buffer(capacity: encoded.readableBytes)
        form.writeImmutableBuffer(encoded)
        let kept = held.withLock { (held: inout Held) -> ByteBuffer? in
            if let first = held.forms[position] { return first }
            guard budget.take(form.capacity) else { return nil }
            held.forms[position] = form
            held.bytes += form.capacity
            return form
        }
        return kept.map { ($0, true) } ?? (form, false)
    }

    /// How many bytes of memory the forms held take (their buffers' capacity).
    var heldBytes: Int { held.withLock { $0.bytes } }

    deinit {
        budget.give(held.withLock { $0.bytes })
    }

    private static let allocator = ByteBufferAllocator()
}

/// The memory the held answer bytes (``WireForms``) of one deck's tapes may take together, so
/// that a deck of many cassettes holds no more than a deck of one; a tape that goes gives its
/// share back.
final class WireBudget: Sendable {
    /// The most bytes held.
    let limit: Int
    private let used = Atomic<Int>(0)

    /// Creates a budget of `limit` bytes, none of them taken.
    init(limit: Int = 8 << 20) {
        self.limit = limit
    }

    /// The bytes not taken yet.
    var room: Int { limit - used.load(ordering: .relaxed) }

    /// Takes `bytes` of the budget; false, taking nothing, when that would pass the limit.
    func take(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while current + bytes <= limit {
            let (exchanged, found) = used.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = found
        }
        return false
    }

    /// Gives back `bytes` taken before.
    func give(_ bytes: Int) {
        used.subtract(bytes, ordering: .relaxed)
    }
}
