import Dispatch
import Foundation

/// Work over every interaction of a large cassette, split into chunks across the machine's
/// cores: decoding, redacting, linting and rendering 100,000 interactions is per-interaction
/// work a user waits for. Small inputs run on the calling thread, in order, as a plain `map`.
/// Results are always in index order, so the outcome never depends on how the work was split.
package enum ChunkedWork {
    /// Below this many elements per chunk, splitting costs more than it saves.
    static let minimumChunk = 512

    /// `transform` of each index in `0..<count`, in index order.
    package static func map<T>(_ count: Int, _ transform: @Sendable (Int) -> T) -> [T] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks = min(cores * 4, count / minimumChunk)
        guard cores > 1, chunks > 1 else { return (0..<count).map(transform) }
        return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            // Each index is written exactly once, by the one chunk that holds it.
            let slots = Slots(base: base)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let lower = count * chunk / chunks, upper = count * (chunk + 1) / chunks
                for index in lower..<upper { (slots.base + index).initialize(to: transform(index)) }
            }
            initialized = count
        }
    }

    /// ``map(_:_:)`` over `elements`.
    package static func map<Element: Sendable, T>(_ elements: [Element], _ transform: @Sendable (Element) -> T) -> [T] {
        map(elements.count) { transform(elements[$0]) }
    }

    /// ``map(_:_:)`` for work that can fail: every value, or the failure at the lowest index
    /// (the one a sequential loop would have met first).
    package static func map<T, Failure: Error>(_ count: Int, _ transform: @Sendable (Int) throws(Failure) -> T) throws(Failure) -> [T] {
        let results: [Result<T, Failure>] = map(count) { index in
            Result { () throws(Failure) -> T in try transform(index) }
        }
        var values: [T] = []
        values.reserveCapacity(count)
        for result in results {
            switch result {
            case .success(let value): values.append(value)
            case .failure(let error): throw error
            }
        }
        return values
    }

    /// Replaces each element with `transform` of it, in place: when the array is not shared,
    /// each element's old parts are released as its new ones are made, so memory does not
    /// hold both versions of every element at once, as a ``map(_:_:)`` into a new array does.
    package static func update<Element>(_ elements: inout [Element], _ transform: @Sendable (Element) -> Element) {
        let count = elements.count
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let chunks = min(cores * 4, count / minimumChunk)
        elements.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            guard cores > 1, chunks > 1 else {
                for index in 0..<count { base[index] = transform(base[index]) }
                return
            }
            // Each index is replaced exactly once, by the one chunk that holds it.
            let slots = Slots(base: base)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let lower = count * chunk / chunks, upper = count * (chunk + 1) / chunks
                for index in lower..<upper { slots.base[index] = transform(slots.base[index]) }
            }
        }
    }

    /// The buffer the chunks write into, shared across the threads of one ``map(_:_:)``.
    private struct Slots<T>: @unchecked Sendable {
        let base: UnsafeMutablePointer<T>
    }
}
