import NIOCore
import Synchronization

/// The ``AnswerBook`` of each event loop a listener's connections run on, made on first use.
final class AnswerBooks: Sendable {
    private let books = Mutex<[ObjectIdentifier: AnswerBook]>([:])

    /// Lets go, on each book's loop, of the answers that stopped holding: called when the deck's
    /// tapes change, so a loop with no more requests does not keep an ejected cassette's bytes.
    func dropStale() {
        for (loop, book) in books.withLock({ $0.values.map { ($0.loop, $0) } }) {
            loop.execute { book.dropStale() }
        }
    }

    /// The book of `loop`, for the lanes that run on it to use there only.
    func book(for loop: any EventLoop) -> AnswerBook {
        books.withLock { books in
            let id = ObjectIdentifier(loop)
            if let book = books[id] { return book }
            let made = AnswerBook(loop: loop)
            books[id] = made
            return made
        }
    }
}
