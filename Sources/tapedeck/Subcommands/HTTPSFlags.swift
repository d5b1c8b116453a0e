import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer

/// How `serve` and `proxy` speak HTTPS: interception of `CONNECT` tunnels, hosts passed
/// through, and how the upstream's certificate is checked (`serve`'s own TLS: ``ServeTLSFlags``).
struct HTTPSFlags: ParsableArguments {
    @Flag(name: .long, help: "Intercept HTTPS: answer CONNECT, end TLS with a certificate from your local CA, and record or replay the requests inside.")
    var intercept = false

    @Option(name: .customLong("pass-through"), help: ArgumentHelp(
        "With --intercept, relay this host's tunnel untouched, for apps that pin certificates (repeatable; HOST or HOST:PORT).", valueName: "host"))
    var passThrough: [String] = []

    @Option(name: .customLong("upstream-ca"), help: ArgumentHelp("Also trust this CA (PEM) for the upstream's certificate.", valueName: "file"))
    var upstreamCA: String?

    @Flag(name: .customLong("insecure-upstream"), help: "Do not verify the upstream's certificate (says so on stderr); never with real credentials.")
    var insecureUpstream = false

    @Option(name: .customLong("max-upstream-body"), help: ArgumentHelp(
        "Largest body taken from the upstream (and recorded); a larger answer is a 502. Bytes, or with K, M or G.", valueName: "SIZE"))
    var maxUpstreamBody = ByteSize(bytes: BodyLimits().maximumBodySize)

    @OptionGroup var ca: CAOptions

    func validate() throws {
        if !passThrough.isEmpty, !intercept {
            throw ValidationError("--pass-through needs --intercept: it names the hosts interception leaves alone, e.g. --intercept --pass-through api.example.com")
        }
        if upstreamCA != nil, insecureUpstream {
            throw ValidationError("--upstream-ca and --insecure-upstream contradict each other: keep verification with --upstream-ca FILE")
        }
        _ = try upstreamRoots()
    }

    /// The PEM of `--upstream-ca`, checked; nil without it.
    func upstreamCAPEM() throws -> Data? {
        guard let upstreamCA else { return nil }
        guard let pem = FileManager.default.contents(atPath: upstreamCA) else {
            throw ValidationError("--upstream-ca '\(upstreamCA)' cannot be read; give a PEM file with the upstream's CA certificate")
        }
        guard String(decoding: pem, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----") else {
            throw ValidationError("--upstream-ca '\(upstreamCA)' holds no PEM certificate (no -----BEGIN CERTIFICATE----- line); "
                + "convert DER with: openssl x509 -inform der -in FILE -out ca.pem")
        }
        return pem
    }

    /// The system's roots with `--upstream-ca` added, or nil without it.
    func upstreamRoots() throws -> Data? {
        try upstreamCAPEM().map(CurlTransport.systemTrustStore(adding:))
    }

    /// The transport `serve` and `proxy` reach their upstream with, with these TLS settings:
    /// redirects recorded hop by hop, and no proxy from the environment (an `http_proxy`
    /// naming this server would loop).
    func upstreamTransport(timeout: TimeInterval) throws -> UpstreamTransport {
        let options = UpstreamTransport.Options(timeout: timeout, verifiesTLS: !insecureUpstream, extraRoots: try upstreamCAPEM(),
                                                limits: BodyLimits(maximumBodySize: maxUpstreamBody.bytes))
        do {
            return try UpstreamTransport(options: options)
        } catch {
            throw ValidationError("--upstream-ca '\(upstreamCA ?? "")' cannot be used as a CA: \(error); give the PEM of a CA certificate")
        }
    }

    /// Sets ``DeckOptions/https`` (making the CA on first use) when TLS (`serve`'s `tls`) or
    /// interception is asked for, and warns on stderr when the upstream's certificate goes unverified.
    func apply(to options: inout DeckOptions, listeningOn host: String, tls: ServeTLSFlags? = nil) throws {
        if insecureUpstream {
            Console.warning("--insecure-upstream: the upstream's certificate is not verified; anyone on the path can read and change what is recorded")
        }
        let servesTLS = tls?.tls ?? false
        guard servesTLS || intercept else { return }
        var names: [String]?
        if servesTLS {
            names = ["localhost", "127.0.0.1", "::1"]
            if !ListenOptions.isLoopback(host), host != "0.0.0.0", host != "::" { names?.append(host) }
            names? += tls?.tlsNames ?? []
        }
        options.https = HTTPSOptions(authority: try ca.authority(), serveNames: names, intercept: intercept, passThrough: passThrough,
                                     upstreamRoots: try upstreamRoots(), verifiesUpstream: !insecureUpstream)
    }
}

/// `serve`'s own HTTPS: TLS on its listening socket (a proxy reaches HTTPS upstreams as given,
/// and clients' HTTPS through `--intercept`).
struct ServeTLSFlags: ParsableArguments {
    @Flag(name: .long, help: "Serve HTTPS on the listening port, with a certificate from your local CA for localhost, 127.0.0.1, ::1 and each --tls-name.")
    var tls = false

    @Option(name: .customLong("tls-name"), help: ArgumentHelp("Another name the --tls certificate covers (repeatable).", valueName: "name"))
    var tlsNames: [String] = []

    func validate() throws {
        if !tlsNames.isEmpty, !tls { throw ValidationError("--tls-name needs --tls") }
        if let bad = tlsNames.first(where: { $0.isEmpty || $0.contains("/") || $0.contains(" ") }) {
            throw ValidationError("--tls-name '\(bad)' is not a host name or address; write --tls-name api.local")
        }
    }
}
