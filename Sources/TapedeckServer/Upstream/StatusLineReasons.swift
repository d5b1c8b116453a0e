import NIOCore

/// The reason phrase of each status line an upstream sends, read from the bytes before NIO's
/// response decoder, which keeps the code alone: a known code gets the standard phrase and an
/// unknown one none. A recording keeps the upstream's own words (`200 Okay`, `599 Network
/// Connect Timeout`), as the libcurl transport does; a status line with no phrase gets the
/// standard one, as there.
///
/// It reads only while a response's head is due (``expectResponse()``), up to the end of the
/// final status line; empty lines before it and interim `1xx` answers with their fields are
/// stepped over. Bodies pass unread.
final class StatusLineReasons: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The longest status line read; a longer one keeps the decoder's phrase.
    static let maximumLine = 8 * 1024

    private enum State {
        /// No response head is due, or the final status line has been read.
        case idle
        /// Reading a status line.
        case statusLine
        /// Stepping over an interim answer's fields, up to the empty line; `atLineStart` is
        /// whether the last byte ended a line.
        case interimFields(atLineStart: Bool)
    }

    private var state = State.idle
    private var line: [UInt8] = []
    private var found: [(code: Int, reason: String)] = []

    /// Called before a request is written: the next bytes begin its answer.
    func expectResponse() {
        state = .statusLine
        line.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
    }

    /// The phrase the upstream sent with `code`, taking it and any earlier interim ones; nil
    /// when none was read (no phrase, a line too long, or bytes that were not a status line).
    func reason(for code: Int) -> String? {
        while let first = found.first {
            found.removeFirst()
            if first.code == code { return first.reason.isEmpty ? nil : first.reason }
        }
        return nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .idle = state {} else { unwrapInboundIn(data).withUnsafeReadableBytes { take($0) } }
        context.fireChannelRead(data)
    }

    /// Reads `bytes` as one read of the connection (``take(_:)-(UnsafeRawBufferPointer)``).
    func take(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { take($0) }
    }

    /// Reads what one read of the connection brought, as far as a head is due: a status line's
    /// bytes are copied up to its end at once, not looked at one by one.
    func take(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        while index < bytes.count {
            switch state {
            case .idle:
                return
            case .statusLine:
                var end = index
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                // One byte past the longest line read marks it as too long.
                let room = Self.maximumLine + 1 - line.count
                if room > 0 { line.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<min(end, index + room)])) }
                guard end < bytes.count else { return }
                index = end + 1
                endStatusLine()
            case .interimFields(var atLineStart):
                while index < bytes.count, case .interimFields = state {
                    switch bytes[index] {
                    case UInt8(ascii: "\n"):
                        if atLineStart { state = .statusLine }
                        atLineStart = true
                    case UInt8(ascii: "\r"):
                        break
                    default:
                        atLineStart = false
                    }
                    index += 1
                }
                if case .interimFields = state { state = .interimFields(atLineStart: atLineStart) }
            }
        }
    }

    /// The LF that ends ``line`` was read.
    private func endStatusLine() {
        // An empty line before the status line is tolerated, as the decoder tolerates it.
        if line.isEmpty || line == [UInt8(ascii: "\r")] {
            line.removeAll(keepingCapacity: true)
            return
        }
        let parsed = line.count <= Self.maximumLine ? Self.parse(line) : nil
        line.removeAll(keepingCapacity: true)
        if let parsed { found.append(parsed) }
        if let code = parsed?.code, (100..<200).contains(code), code != 101 {
            state = .interimFields(atLineStart: true)
        } else {
            state = .idle
        }
    }

    /// `HTTP/1.1 200 Okay` as (200, "Okay"); nil for anything else.
    static func parse(_ line: [UInt8]) -> (code: Int, reason: String)? {
        var bytes = line[...]
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        guard bytes.starts(with: "HTTP/".utf8), let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let digits = bytes[(space + 1)...].prefix(3)
        guard digits.count == 3, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        let rest = bytes[digits.endIndex...]
        guard rest.isEmpty || rest.first == UInt8(ascii: " ") else { return nil }
        let reason = rest.dropFirst()
        // A control character would end or split the line when the answer is written again.
        guard !reason.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        return (code, String(decoding: reason, as: UTF8.self))
    }
}
