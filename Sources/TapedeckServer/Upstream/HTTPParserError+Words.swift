import NIOHTTP1

extension HTTPParserError {
    /// What an HTTP/1.1 message broke, in the words of the message rather than the parser's
    /// (`strictModeAssertion`): for an error that names a malformed answer from an upstream.
    var plainWords: String {
        switch self {
        case .invalidChunkSize: "a chunk size that is not a hexadecimal number, or one too large"
        case .strictModeAssertion: "a chunk longer than its size said, or bytes where a line end belongs"
        case .lfExpected: "a line not ended by CRLF"
        case .invalidVersion: "a status line without HTTP/1.x"
        case .invalidStatus: "a status that is not three digits"
        case .invalidConstant: "a malformed status line"
        case .invalidHeaderToken: "a header name holding a character no name may hold"
        case .invalidCharactersUsed: "a character no HTTP message may hold"
        case .invalidContentLength: "a Content-Length that is not one number"
        case .unexpectedContentLength: "both Content-Length and Transfer-Encoding"
        case .invalidEOFState: "a connection closed in the middle of the answer"
        case .trailingGarbage: "bytes after the end of the answer"
        default: "\(self)"
        }
    }
}
