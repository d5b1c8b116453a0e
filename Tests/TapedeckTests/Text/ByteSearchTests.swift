import Foundation
import Testing
@testable import Tapedeck

/// Text read on its UTF-8 bytes in place: what header checks and host rules use on every request.
@Suite("Byte search")
struct ByteSearchTests {
    @Test("every byte is checked, in small, native and bridged strings alike")
    func allBytes() {
        let long = String(repeating: "a", count: 100) + "\r"
        #expect("Content-Type".allBytes(satisfy: HTTPMethod.isTokenByte))
        #expect(!"Content Type".allBytes(satisfy: HTTPMethod.isTokenByte))
        #expect(!long.allBytes { $0 != 0x0D }, "the last byte of a long string counts")
        #expect("".allBytes { _ in false }, "an empty string has no byte that fails")
        #expect(!("x-é" as NSString as String).allBytes { $0 < 0x80 }, "a bridged string is read too")
        #expect("[::1]".containsByte(UInt8(ascii: ":")))
        #expect(!"127.0.0.1".containsByte(UInt8(ascii: ":")))
    }

    @Test("a token byte is exactly RFC 9110's tchar: letters, digits and fifteen symbols")
    func tokenBytes() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(HTTPMethod.isTokenByte(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }

    @Test("an IPv6 host is written in brackets for a URL's authority; other hosts as they are", arguments: [
        ("::1", "[::1]"), ("fe80::1%25en0", "[fe80::1%25en0]"), ("127.0.0.1", "127.0.0.1"), ("api.example.com", "api.example.com"),
    ])
    func bracketedHost(host: String, written: String) {
        #expect(host.bracketedIfIPv6 == written)
    }
}
