import Foundation
import Tapedeck
import TapedeckTestSupport
@testable import TapedeckServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The local CA refuses what cannot work or is not safe, naming the file and the fix; the
/// leaves it signs are for host names only, and never outlive it.
@Suite("The local CA's files")
struct LocalCATests {
    private static let day: TimeInterval = 86_400

    /// A fresh CA folder in a scratch directory, made as of `now`.
    private static func authority(in directory: URL, now: Date = Date()) throws -> (folder: URL, authority: LocalCA) {
        let folder = directory.appending(path: "ca")
        return (folder, try LocalCA.openOrCreate(in: folder, now: now).authority)
    }

    @Test("an expired CA, and a certificate that is not a CA's, are refused with the file and how to start over")
    func unusableCertificates() throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        // Made eleven years ago, valid for ten.
        let (folder, _) = try Self.authority(in: directory, now: Date(timeIntervalSinceNow: -11 * 365 * Self.day))
        let expired = #expect(throws: LocalCAError.self) { try LocalCA.open(in: folder) }
        let message = expired?.errorDescription ?? ""
        #expect(message.contains("tapedeck-ca.pem") && message.contains("it expired on") && message.contains("move its folder aside"), "\(message)")

        // A leaf given as the CA (CA:FALSE).
        let leaf = directory.appending(path: "leaf")
        try FileManager.default.createDirectory(at: leaf, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let made = try Proc.runBlocking("/usr/bin/openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                                         "-keyout", leaf.appending(path: "tapedeck-ca-key.pem").path,
                                                         "-out", leaf.appending(path: "tapedeck-ca.pem").path, "-days", "30", "-subj", "/CN=leaf",
                                                         "-addext", "basicConstraints=critical,CA:FALSE"])
        #expect(made.status == 0, "\(made.stderr)")
        chmod(leaf.appending(path: "tapedeck-ca-key.pem").path, 0o600)
        let notCA = #expect(throws: LocalCAError.self) { try LocalCA.open(in: leaf) }
        #expect(notCA?.errorDescription?.contains("it is not a CA certificate") == true, "\(String(describing: notCA))")
    }

    @Test("a CA folder others may write, a missing certificate and a key that is not PEM are each named with the fix")
    func folderAndFiles() throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        let (folder, authority) = try Self.authority(in: directory)
        chmod(folder.path, 0o777)
        let exposed = #expect(throws: LocalCAError.self) { try LocalCA.open(in: folder) }
        #expect(exposed?.errorDescription?.contains("chmod 700 \(folder.path)") == true, "\(String(describing: exposed))")
        chmod(folder.path, 0o700)
        // Nor is a CA made in such a folder.
        let open = directory.appending(path: "open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        #expect(throws: LocalCAError.self) { try LocalCA.openOrCreate(in: open) }
        #expect(!FileManager.default.fileExists(atPath: open.appending(path: "tapedeck-ca-key.pem").path), "no key is written there")

        let certificate = try Data(contentsOf: authority.certificateFile)
        try FileManager.default.removeItem(at: authority.certificateFile)
        let missing = #expect(throws: LocalCAError.self) { try LocalCA.open(in: folder) }
        #expect(missing?.errorDescription?.contains("\(authority.certificateFile.path): the key is there but its certificate is not") == true,
                "\(String(describing: missing))")
        try certificate.write(to: authority.certificateFile)

        try Data((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }).write(to: authority.keyFile)
        chmod(authority.keyFile.path, 0o600)
        let binary = #expect(throws: LocalCAError.self) { try LocalCA.open(in: folder) }
        let message = binary?.errorDescription ?? ""
        #expect(message.contains(authority.keyFile.path) && message.contains("not a whole PEM P-256 private key"), "\(message)")
        #expect(!message.contains("Error") && !message.contains("UTF8View"), "no library internals: \(message)")
    }

    @Test("a leaf never outlives its CA, and only host names and addresses are signed for a client's SNI")
    func leaves() throws {
        let directory = try Proc.temporaryDirectory()
        defer { Proc.cleanUp(directory) }
        // A CA with ten days left.
        let (folder, authority) = try Self.authority(in: directory, now: Date(timeIntervalSinceNow: -(10 * 365 - 10) * Self.day))
        let leaf = try LeafMint(authority: authority).minted(for: ["localhost"]).certificate
        #expect(leaf.notValidAfter <= authority.notValidAfter)
        // The command line says so before it ends.
        if let binary = Proc.tapedeck {
            let shown = try Proc.runBlocking(binary, ["ca", "show", "--ca-dir", folder.path])
            #expect(shown.status == 0 && shown.stderr.contains("days), and the certificates it signs end with it"), "\(shown.stderr)")
        }
        for name in ["api.example.com", "localhost", "127.0.0.1", "::1", "xn--caf-dma.example", "a-b.c", "my_service.internal"] { #expect(LeafMint.signable(name), "\(name)") }
        for name in ["*.example.com", "a b", "a/b", "x.-y", "", "a..b", String(repeating: "a", count: 64) + ".com"] { #expect(!LeafMint.signable(name), "\(name)") }
    }

    @Test("a CONNECT target is host:port with a port of digits; only a bracketed IPv6 address holds colons")
    func connectTargets() {
        #expect(Tunnel.authority("api.example.com:443")! == ("api.example.com", 443))
        #expect(Tunnel.authority("[::1]:8443")! == ("::1", 8443))
        #expect(Tunnel.authority("127.0.0.1:80")! == ("127.0.0.1", 80))
        for bad in ["localhost:+443", "localhost:", "localhost:0", "localhost:99999", "[127.0.0.1]:443", "[zz]:443", "::1:18443", "a b:1", "h:44 3"] {
            #expect(Tunnel.authority(bad) == nil, "\(bad)")
        }
        #expect(ControlGate.isLoopback("::ffff:127.0.0.1") && !ControlGate.isLoopback("::ffff:10.0.0.1"), "an IPv4 loopback address written IPv6's way")
        // The log and the inspector name a tunnel by the host and port it opens.
        #expect(Deck.redactedSummary(IncomingRequest(method: "CONNECT", target: "api.test:443", headers: [:])) == "CONNECT api.test:443")
    }
}
