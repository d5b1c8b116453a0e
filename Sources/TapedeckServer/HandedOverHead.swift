import NIOHTTP1

/// What makes the head the fast lane hands to the codec one the codec will refuse, read from
/// its bytes so that the refusal names it: the parser's own errors say only that it failed.
enum HandedOverHead: Equatable {
    /// The request line alone is longer than the limit for a whole head: the URL is too long (414).
    case targetTooLong
    /// The head has both `Content-Length` and `Transfer-Encoding` (RFC 9112 §6.1).
    case framingConflict

    /// The problem `bytes` (the unanswered bytes, a head first) shows, if any, for a head limit
    /// of `maxBytes`.
    static func problem(in bytes: UnsafeRawBufferPointer, maxBytes: Int) -> HandedOverHead? {
        let window = bytes.prefix(maxBytes)
        guard let lineEnd = window.firstIndex(of: UInt8(ascii: "\n")) else {
            return bytes.count >= maxBytes ? .targetTooLong : nil
        }
        var hasLength = false, hasEncoding = false
        var start = lineEnd + 1
        while start < window.endIndex {
            let end = window[start...].firstIndex(of: UInt8(ascii: "\n")) ?? window.endIndex
            let line = window[start..<end]
            // The empty line ends the head.
            if line.isEmpty || line.elementsEqual([UInt8(ascii: "\r")]) { break }
            hasLength = hasLength || startsWithName(line, "content-length")
            hasEncoding = hasEncoding || startsWithName(line, "transfer-encoding")
            start = end + 1
        }
        return hasLength && hasEncoding ? .framingConflict : nil
    }

    /// Whether `line` is a field named `name` (lower-case ASCII), in any case.
    private static func startsWithName(_ line: Slice<UnsafeRawBufferPointer>, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard line.count > count, line[line.startIndex + count] == UInt8(ascii: ":") else { return false }
        for offset in 0..<count where line[line.startIndex + offset] | 0x20 != name.utf8Start[offset] {
            return false
        }
        return true
    }

    /// The status and text the client gets when the codec refuses such a head with `error`,
    /// or nil when `error` is not the refusal this problem explains.
    func refusal(limit: Int, parsing error: HTTPParserError) -> (status: Int, text: String)? {
        switch self {
        case .targetTooLong:
            guard error == .headerOverflow else { return nil }
            return (414, "the request line is over the limit of \(limit) bytes for a request's head: the URL is too long; "
                + "shorten it (send long data in a POST body, not the query)\n")
        case .framingConflict:
            // Where llhttp's refusal of the pair lands; any other error is about something else.
            guard error == .unexpectedContentLength || error == .unknown else { return nil }
            return (400, "the request has both Content-Length and Transfer-Encoding, which RFC 9112 §6.1 does not allow "
                + "(the two could frame its body differently); send only one of them\n")
        }
    }
}
