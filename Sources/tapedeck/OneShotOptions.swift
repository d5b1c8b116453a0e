import ArgumentParser
import Foundation
import Tapedeck

/// The flags of a one-shot request (`tapedeck [METHOD] URL [ITEM...] [FLAGS]`).
struct OneShotOptions: ParsableArguments {
    @Flag(name: [.customLong("form"), .customShort("f")], help: "Send fields urlencoded (application/x-www-form-urlencoded).")
    var form = false

    @Flag(name: .long, help: "Send fields and files as multipart/form-data.")
    var multipart = false

    @Option(name: .long, help: ArgumentHelp(
        "Send TEXT as the body (no body items allowed), as application/json if it parses as JSON, else text/plain; add Content-Type:… to override.",
        valueName: "TEXT"))
    var raw: String?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Seconds to wait for the whole response.", valueName: "SECONDS"))
    var timeout: Double = 30

    @Flag(name: [.customLong("follow"), .customShort("F")], help: "Follow redirects (not followed by default).")
    var follow = false

    @Flag(name: [.customLong("insecure"), .customShort("k")], help: "Do not verify TLS certificates (self-signed servers).")
    var insecure = false

    @Option(name: [.customLong("print"), .customShort("p")], help: ArgumentHelp(
        "What to print: H request headers, B request body, h response headers, b response body.", valueName: "HhBb"))
    var print: String?

    @Flag(name: [.customLong("verbose"), .customShort("v")], help: "Print the request too (same as --print HBhb).")
    var verbose = false

    @Flag(name: .customLong("headers"), help: "Print only the response headers (--print h).")
    var headersOnly = false

    @Flag(name: [.customLong("body"), .customShort("b")], help: "Print only the response body (--print b).")
    var bodyOnly = false

    @Option(name: .long, help: ArgumentHelp("all, colors, format or none (default: all on a terminal, none when piped).", valueName: "STYLE"))
    var pretty: String?

    @Flag(name: .long, help: "Do not read a body from standard input (a redirected file or a pipe is read by default).")
    var ignoreStdin = false

    @Flag(name: .long, help: "Exit with 4 when the status is 4xx or 5xx.")
    var checkStatus = false

    @Option(name: .long, help: ArgumentHelp(
        "Write the response body to FILE as it arrives (any size, in bounded memory); headers still print.", valueName: "FILE"))
    var download: String?

    @Option(name: .long, help: ArgumentHelp(
        "Largest body kept in memory (a terminal, --print with headers); a piped body alone and --download stream any size. "
            + "Bytes, or with K, M or G.", valueName: "SIZE"))
    var maxBodySize = ByteSize(bytes: BodyLimits().maximumBodySize)

    func validate() throws {
        try TimeoutOption.validate(timeout)
    }
}
