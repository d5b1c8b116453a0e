#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Crypto
import Foundation
import SwiftASN1
import Tapedeck
import X509

/// The user's own certificate authority: created on first use in a folder of the user's
/// (never shipped, so no two people share a key), it signs the leaf certificates `serve --tls`
/// and `proxy --intercept` present. The key file is readable by its owner only.
///
/// ```swift
/// let authority = try LocalCA.openOrCreate(in: LocalCA.defaultDirectory())
/// print(authority.certificateFile.path, authority.fingerprint)
/// ```
public struct LocalCA: Sendable {
    /// The folder holding the certificate and the key.
    public let directory: URL
    /// The CA certificate (self-signed).
    public let certificate: Certificate
    /// The key that signs leaves.
    let privateKey: P256.Signing.PrivateKey

    /// The certificate file, PEM: what clients are told to trust.
    public var certificateFile: URL { directory.appending(path: LocalCA.certificateName) }
    /// The key file, PEM, mode 0600.
    public var keyFile: URL { directory.appending(path: LocalCA.keyName) }

    static let certificateName = "tapedeck-ca.pem"
    static let keyName = "tapedeck-ca-key.pem"

    /// The certificate as PEM text.
    public var pem: String {
        get throws(LocalCAError) {
            do { return try certificate.serializeAsPEM().pemString } catch { throw .malformed(path: certificateFile.path, reason: "\(error)") }
        }
    }

    /// The certificate as DER bytes.
    public var der: [UInt8] {
        get throws(LocalCAError) {
            var serializer = DER.Serializer()
            do { try serializer.serialize(certificate) } catch { throw .malformed(path: certificateFile.path, reason: "\(error)") }
            return serializer.serializedBytes
        }
    }

    /// The SHA-256 fingerprint of the DER certificate, as `AB:CD:…` (what `openssl x509
    /// -fingerprint -sha256` and a device's certificate settings show).
    public var fingerprint: String {
        get throws(LocalCAError) {
            SHA256.hash(data: try der).map { String(format: "%02X", $0) }.joined(separator: ":")
        }
    }

    /// The name Android's system store gives this CA (`XXXXXXXX.0`): OpenSSL's old subject
    /// hash, the first four bytes of the MD5 of the DER subject, little-endian, in hex.
    public var androidStoreName: String {
        get throws(LocalCAError) {
            var serializer = DER.Serializer()
            do { try serializer.serialize(certificate.subject) } catch { throw .malformed(path: certificateFile.path, reason: "\(error)") }
            let digest = Array(Insecure.MD5.hash(data: serializer.serializedBytes))
            let value = UInt32(digest[0]) | UInt32(digest[1]) << 8 | UInt32(digest[2]) << 16 | UInt32(digest[3]) << 24
            return String(format: "%08x.0", value)
        }
    }

    /// When the CA stops being valid.
    public var notValidAfter: Date { certificate.notValidAfter }

    /// Where the CA lives unless told otherwise: `TAPEDECK_CA_DIR`, else
    /// `$XDG_DATA_HOME/tapedeck/ca` (`~/.local/share/tapedeck/ca`), or on macOS
    /// `~/Library/Application Support/Tapedeck/ca`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let given = environment["TAPEDECK_CA_DIR"], !given.isEmpty { return URL(fileURLWithPath: given) }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        #if os(macOS)
        return home.appending(path: "Library/Application Support/Tapedeck/ca")
        #else
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return URL(fileURLWithPath: data).appending(path: "tapedeck/ca")
        }
        return home.appending(path: ".local/share/tapedeck/ca")
        #endif
    }

    /// The CA in `directory`, or nil when there is none yet.
    public static func open(in directory: URL) throws(LocalCAError) -> LocalCA? {
        let authority = LocalCA.files(in: directory)
        guard FileManager.default.fileExists(atPath: authority.key.path) || FileManager.default.fileExists(atPath: authority.certificate.path) else {
            return nil
        }
        return try read(from: directory)
    }

    /// The CA in `directory`, created there first when there is none (the folder 0700, the
    /// key 0600). Two processes starting at once end with the same CA. `created` says
    /// whether this call made it.
    public static func openOrCreate(in directory: URL, now: Date = Date()) throws(LocalCAError) -> (authority: LocalCA, created: Bool) {
        if let existing = try open(in: directory) { return (existing, false) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreate(path: directory.path, reason: error.localizedDescription)
        }
        // A folder that was there already keeps its mode: the key goes in one that is safe only.
        try checkFolder(directory)
        // One creator at a time: the second waits, then finds the first one's CA.
        let lockPath = directory.appending(path: ".lock").path
        let lock = systemOpen(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw .cannotCreate(path: lockPath, reason: String(cString: strerror(errno))) }
        defer { systemClose(lock) }
        _ = flock(lock, LOCK_EX)
        if let existing = try open(in: directory) { return (existing, false) }
        let made = try make(in: directory, now: now)
        try made.write()
        return (made, true)
    }

    private static func files(in directory: URL) -> (certificate: URL, key: URL) {
        (directory.appending(path: certificateName), directory.appending(path: keyName))
    }

    private static func read(from directory: URL, now: Date = Date()) throws(LocalCAError) -> LocalCA {
        let paths = files(in: directory)
        let startOver = "move \(directory.path) aside to create a new CA (clients must then trust the new one)"
        try checkFolder(directory)
        var status = stat()
        guard stat(paths.key.path, &status) == 0 else {
            throw .unreadable(path: paths.key.path, reason: "the certificate is there but its key is not; \(startOver)")
        }
        if status.st_mode & 0o077 != 0 {
            throw .keyExposed(path: paths.key.path, mode: String(status.st_mode & 0o777, radix: 8))
        }
        guard FileManager.default.fileExists(atPath: paths.certificate.path) else {
            throw .unreadable(path: paths.certificate.path, reason: "the key is there but its certificate is not; \(startOver)")
        }
        let keyText: String, certificateText: String
        do {
            keyText = String(decoding: try Data(contentsOf: paths.key), as: UTF8.self)
        } catch {
            throw .unreadable(path: paths.key.path, reason: error.localizedDescription)
        }
        do {
            certificateText = String(decoding: try Data(contentsOf: paths.certificate), as: UTF8.self)
        } catch {
            throw .unreadable(path: paths.certificate.path, reason: error.localizedDescription)
        }
        let key: P256.Signing.PrivateKey, certificate: Certificate
        do { key = try P256.Signing.PrivateKey(pemRepresentation: keyText) } catch {
            throw .malformed(path: paths.key.path, reason: "it is not a whole PEM P-256 private key")
        }
        do { certificate = try Certificate(pemEncoded: certificateText) } catch {
            throw .malformed(path: paths.certificate.path, reason: "it is not a whole PEM certificate")
        }
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw .malformed(path: paths.certificate.path, reason: "the certificate is not the key's (\(paths.key.lastPathComponent))")
        }
        if let problem = authorityProblem(certificate, now: now) { throw .malformed(path: paths.certificate.path, reason: problem) }
        return LocalCA(directory: directory, certificate: certificate, privateKey: key)
    }

    /// Refuses a folder others may write, or that is another user's: whoever may write it may
    /// swap the certificate, or the trust bundle clients read.
    private static func checkFolder(_ directory: URL) throws(LocalCAError) {
        var status = stat()
        guard stat(directory.path, &status) == 0 else { return }
        if status.st_mode & 0o022 != 0 || status.st_uid != geteuid() {
            throw .folderExposed(path: directory.path, mode: String(status.st_mode & 0o777, radix: 8), owned: status.st_uid == geteuid())
        }
    }

    /// Why `certificate` cannot sign the certificates clients are shown, or nil: clients refuse
    /// a leaf whose issuer has expired, is not valid yet, or is not a CA that signs certificates.
    static func authorityProblem(_ certificate: Certificate, now: Date) -> String? {
        let day = { (date: Date) in RFC3339Date.format(date, fractionDigits: 0).prefix(10) }
        if certificate.notValidAfter <= now { return "it expired on \(day(certificate.notValidAfter)), so clients refuse every certificate it signs" }
        if certificate.notValidBefore > now { return "it is not valid until \(day(certificate.notValidBefore)), so clients refuse every certificate it signs" }
        let constraints = try? certificate.extensions.basicConstraints
        guard case .isCertificateAuthority? = constraints else {
            return "it is not a CA certificate (no basicConstraints CA:TRUE), so clients refuse every certificate it signs"
        }
        if let usage = try? certificate.extensions.keyUsage, !usage.keyCertSign {
            return "its key usage does not allow signing certificates (keyCertSign), so clients refuse every certificate it signs"
        }
        return nil
    }

    /// A new CA valid for ten years, named for this machine's user so that two people's CAs
    /// are told apart in a trust store.
    static func make(in directory: URL, now: Date) throws(LocalCAError) -> LocalCA {
        let key = P256.Signing.PrivateKey()
        let suffix = SHA256.hash(data: key.publicKey.rawRepresentation).prefix(4).map { String(format: "%02x", $0) }.joined()
        do {
            let name = try DistinguishedName {
                OrganizationName("Tapedeck")
                CommonName("Tapedeck local CA \(suffix)")
            }
            let publicKey = Certificate.PublicKey(key.publicKey)
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: publicKey)
            }
            let certificate = try Certificate(version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
                                              notValidBefore: now.addingTimeInterval(-86_400), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
                                              issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                                              issuerPrivateKey: Certificate.PrivateKey(key))
            return LocalCA(directory: directory, certificate: certificate, privateKey: key)
        } catch {
            throw .cannotCreate(path: directory.path, reason: "\(error)")
        }
    }

    /// Writes the key (0600, created exclusively) and then the certificate.
    private func write() throws(LocalCAError) {
        try LocalCA.writeFile(Data(privateKey.pemRepresentation.utf8), to: keyFile, mode: 0o600)
        try LocalCA.writeFile(Data(try pem.utf8), to: certificateFile, mode: 0o644)
    }

    /// Writes `data` to a new file at `url` with `mode`, through a temporary file renamed into place.
    static func writeFile(_ data: Data, to url: URL, mode: mode_t) throws(LocalCAError) {
        let temporary = url.path + ".\(getpid()).tmp"
        let descriptor = systemOpen(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw .cannotCreate(path: temporary, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { bytes in systemWrite(descriptor, bytes.baseAddress, bytes.count) }
        let synced = fsync(descriptor)
        systemClose(descriptor)
        guard written == data.count, synced == 0, rename(temporary, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .cannotCreate(path: url.path, reason: reason)
        }
    }
}

/// Why the local CA could not be read or made.
public enum LocalCAError: Error, LocalizedError, Equatable {
    /// A file could not be read.
    case unreadable(path: String, reason: String)
    /// A file is not what it should be.
    case malformed(path: String, reason: String)
    /// The key can be read by others.
    case keyExposed(path: String, mode: String)
    /// The folder or a file could not be written.
    case cannotCreate(path: String, reason: String)
    /// The folder can be written by others, or is someone else's.
    case folderExposed(path: String, mode: String, owned: Bool)

    /// What went wrong, where, and what to do.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason): "cannot read the local CA at \(path): \(reason)"
        case .malformed(let path, let reason):
            "the local CA file \(path) is damaged: \(reason); move its folder aside to create a new CA (clients must then trust the new one)"
        case .keyExposed(let path, let mode):
            "the local CA key \(path) can be read by others (mode \(mode)); anyone who reads it can intercept your TLS traffic. "
                + "Make it private with: chmod 600 \(path)"
        case .cannotCreate(let path, let reason): "cannot create the local CA at \(path): \(reason)"
        case .folderExposed(let path, let mode, let owned):
            owned ? "the local CA folder \(path) can be written by others (mode \(mode)); whoever writes it can swap the CA your clients trust. "
                + "Make it yours alone with: chmod 700 \(path)"
                : "the local CA folder \(path) belongs to another user; whoever owns it can swap the CA your clients trust. "
                + "Use a folder of your own (--ca-dir or TAPEDECK_CA_DIR)"
        }
    }
}

// The C calls by other names: inside `LocalCA`, `open` is ``LocalCA/open(in:)``.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ descriptor: Int32) { close(descriptor) }
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, bytes, count) }
