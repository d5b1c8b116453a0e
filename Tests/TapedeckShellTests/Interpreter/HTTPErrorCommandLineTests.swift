import Foundation
import Tapedeck
import TapedeckShell
import Testing

@Suite("HTTP errors worded for the command line")
struct HTTPErrorCommandLineTests {
    @Test("a timeout and a TLS failure name the tapedeck flag that fixes them; other errors read as the core's")
    func flags() {
        #expect(HTTPError.timedOut(url: "http://h/", seconds: 0.5).commandLineDescription
            == "request to http://h/ timed out after 0.5 s; raise it with --timeout SECONDS")
        #expect(HTTPError.tlsFailure(host: "h", detail: "self-signed").commandLineDescription
            == "TLS failure with h: self-signed; if you trust this server, retry with --insecure")
        let refused = HTTPError.cannotConnect(host: "h", port: 1)
        #expect(refused.commandLineDescription == refused.errorDescription)
    }
}
