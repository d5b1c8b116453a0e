@preconcurrency import Glibc
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling
import TapedeckCurl
import TapedeckShell

/// `--timeout`, `--follow` and `--insecure` for the REPL and `tapedeck run`, as the one-shot
/// CLI (and HTTPie) has them; a request line's own `--timeout`/`--follow` overrides them.
struct SessionTransportOptions: ParsableArguments {
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds each request may take, redirects included (a request's --timeout overrides it).", valueName: "SECONDS"))
    var timeout: Double = 30

    @Flag(name: [.customLong("follow"), .customShort("F")], help: "Follow redirects (not followed by default; a request's --follow turns it on for that request).")
    var follow = false

    @Flag(name: [.customLong("insecure"), .customShort("k")], help: "Do not verify TLS certificates (self-signed servers).")
    var insecure = false

    @Option(name: .long, help: ArgumentHelp(
        "Largest response body accepted (and recorded); a larger one fails the request. Bytes, or with K, M or G.",
        valueName: "SIZE"))
    var maxBodySize = ByteSize(bytes: BodyLimits().maximumBodySize)

    func validate() throws {
        try TimeoutOption.validate(timeout)
    }

    /// libcurl with no deadline of its own (the interpreter keeps one over the whole exchange,
    /// redirects included) and no redirect following (the interpreter follows hop by hop).
    func makeTransport() -> CurlTransport {
        CurlTransport(options: .init(timeout: 0, followRedirects: false, verifyTLS: !insecure,
                                     limits: BodyLimits(maximumBodySize: maxBodySize.bytes)))
    }

    func apply(to options: inout Interpreter.Options) {
        options.timeout = timeout
        options.followRedirects = follow
        options.insecure = insecure
    }
}
