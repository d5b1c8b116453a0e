import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read a window at a time, for ``JSONParser/parse(_:streamingElementsOf:_:)``: the
/// parser moves the window on at element boundaries, so a 100,000-interaction cassette is
/// decoded without its bytes being held whole beside what they decode to.
///
/// The window keeps the bytes from a point the parser names (the start of the element it is
/// reading) and reads on from the file behind them; it doubles when one element is larger
/// than the window. It never holds more than that element plus one window.
final class JSONFileWindow {
    private let descriptor: Int32
    private var storage: UnsafeMutableRawBufferPointer
    /// How many bytes of `storage` hold file bytes.
    private(set) var count = 0
    /// Whether every byte of the file up to its end has been read into the window.
    private(set) var atEnd = false
    /// Why a read failed, when one did (the window then ends there).
    private(set) var failure: String?
    /// How many bytes of the file the window has moved past.
    private(set) var dropped = 0
    /// The file's size when the window was made, or nil when it could not be read.
    let fileSize: Int?
    /// Where in the file the streamed element being read starts (the parser sets it).
    var elementStart = 0

    /// A window of `capacity` bytes over an open descriptor (which the caller closes), filled.
    init(descriptor: Int32, capacity: Int) {
        self.descriptor = descriptor
        var status = stat()
        fileSize = fstat(descriptor, &status) == 0 && status.st_size > 0 ? Int(status.st_size) : nil
        storage = .allocate(byteCount: max(capacity, 16), alignment: 16)
        fill()
    }

    /// How many elements the file may hold in all, from the bytes the first `parsed` of them
    /// took (the last of them starting at ``elementStart``), a little over rather than under;
    /// nil before there is anything to go by.
    func expectedElements(parsed: Int) -> Int? {
        guard let fileSize, parsed > 1, elementStart > 0 else { return nil }
        let perByte = Double(parsed - 1) / Double(elementStart)
        return Int((Double(fileSize) * perByte * 1.05).rounded(.up)) + 16
    }

    deinit {
        storage.deallocate()
    }

    /// The bytes the window holds.
    var bytes: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: storage.baseAddress?.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// How many bytes the window can hold before it grows.
    var capacity: Int { storage.count }

    /// Keeps the bytes from `start` on (they move to the front) and reads on behind them; when
    /// nothing can be dropped and the window is full, it doubles first. Afterwards the window
    /// holds more bytes after the kept ones than before, unless the file has ended.
    func keep(from start: Int) {
        if start > 0 {
            if start < count, let base = storage.baseAddress {
                memmove(base, base + start, count - start)
            }
            dropped += min(start, count)
            count -= min(start, count)
        } else if count == storage.count {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 16)
            if let from = storage.baseAddress, let to = larger.baseAddress { memcpy(to, from, count) }
            storage.deallocate()
            storage = larger
        }
        fill()
    }

    /// Frees the window's memory before the file is read another way (it holds nothing after).
    func discard() {
        storage.deallocate()
        storage = .allocate(byteCount: 16, alignment: 16)
        count = 0
        atEnd = true
    }

    /// Keeps the bytes from `start` on and reads the rest of the file behind them.
    func keepRest(from start: Int) {
        keep(from: start)
        while !atEnd { keep(from: 0) }
    }

    /// Reads until the window is full, the file ends, or a read fails.
    private func fill() {
        guard let base = storage.baseAddress else { return }
        while count < storage.count, !atEnd {
            let read = systemRead(descriptor, base + count, storage.count - count)
            if read > 0 {
                count += read
            } else if read == 0 {
                atEnd = true
            } else if errno != EINTR {
                failure = String(cString: strerror(errno))
                atEnd = true
            }
        }
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
