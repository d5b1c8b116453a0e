import Crypto
import Foundation
import NIOCore
import NIOSSL
import SwiftASN1
import Synchronization
import X509

/// Mints the leaf certificates a ``LocalCA`` signs, one per host name, and keeps them: a
/// second connection for the same host gets the same leaf and the same TLS context.
///
/// Each leaf follows the rules Apple's platforms apply to a certificate from a user-trusted
/// root: the name in `subjectAltName` (a DNS name, or an IP address), extended key usage
/// `serverAuth`, an ECDSA P-256 key signed with SHA-256, and 397 days of validity at most
/// (one day back for clock skew). All leaves share one key, made when the mint is, so minting
/// is one signature.
package final class LeafMint: Sendable {
    /// The CA that signs.
    package let authority: LocalCA
    private let leafKey = P256.Signing.PrivateKey()
    private let sslKey: NIOSSLPrivateKey
    private let contexts = Mutex<[String: Minted]>([:])

    /// A leaf and the TLS context that presents it.
    package struct Minted: Sendable {
        /// The leaf certificate.
        package var certificate: Certificate
        /// The leaf as NIOSSL holds it.
        package var sslCertificate: NIOSSLCertificate
        /// A server context presenting the leaf.
        package var context: NIOSSLContext
    }

    /// How many leaves are kept before the cache starts over.
    static let keptLeaves = 10_000

    /// How long a leaf is valid, counted from a day before it was minted.
    static let validity: TimeInterval = 397 * 86_400

    /// How long a TLS connection the server closes waits for its client's close_notify.
    static let closeNoticeWait = TimeAmount.seconds(1)

    /// Creates a mint signing with `authority`.
    package init(authority: LocalCA) throws(LocalCAError) {
        self.authority = authority
        do {
            sslKey = try NIOSSLPrivateKey(bytes: Array(leafKey.pemRepresentation.utf8), format: .pem)
        } catch {
            throw .cannotCreate(path: authority.directory.path, reason: "cannot load a minted key into TLS: \(error)")
        }
    }

    /// The leaf and context for `names` (the first is the subject; every one is in the SAN),
    /// minted on first use and kept. When `followingSNI`, a client naming another host gets
    /// that host's leaf (interception); otherwise only `names` are ever signed (`serve --tls`).
    package func minted(for names: [String], followingSNI: Bool = true, now: Date = Date()) throws(LocalCAError) -> Minted {
        let key = names.map { $0.lowercased() }.joined(separator: ",") + (followingSNI ? "" : " only")
        if let kept = contexts.withLock({ $0[key] }), fresh(kept, now: now) { return kept }
        let minted = try mint(names, followingSNI: followingSNI, now: now)
        return contexts.withLock { stored in
            // Two connections racing for a new host both mint; the first stored is kept.
            if let kept = stored[key], fresh(kept, now: now) { return kept }
            // Bounded: a client naming endless hosts costs signatures, not memory.
            if stored.count >= LeafMint.keptLeaves { stored.removeAll(keepingCapacity: true) }
            stored[key] = minted
            return minted
        }
    }

    /// Whether a kept leaf is still given out: until a day before it ends, or, when it ends
    /// with the CA (a new one would end no later), until it ends.
    private func fresh(_ kept: Minted, now: Date) -> Bool {
        let end = kept.certificate.notValidAfter
        return end > now.addingTimeInterval(86_400) || (end >= authority.notValidAfter && end > now)
    }

    /// A server context for `host` that, when the client names another host in SNI, presents
    /// that host's leaf instead.
    package func context(for host: String) throws(LocalCAError) -> NIOSSLContext {
        try minted(for: [host]).context
    }

    /// Whether a client's SNI `name` may have a leaf of its own: an IP address, or a host name
    /// of letters, digits, hyphens and underscores (`my_service`, as container names go)
    /// between dots. A wildcard, a space or a slash is none.
    static func signable(_ name: String) -> Bool {
        if case .ipAddress = generalName(name) { return true }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return name.utf8.count <= 253 && !labels.isEmpty && labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
    }

    private func mint(_ names: [String], followingSNI: Bool, now: Date) throws(LocalCAError) -> Minted {
        let subject = names.first ?? "localhost"
        // A server still running when its CA ends signs nothing a client would take.
        if let problem = LocalCA.authorityProblem(authority.certificate, now: now) {
            throw .malformed(path: authority.certificateFile.path, reason: problem)
        }
        do {
            let issuerKey = Certificate.PublicKey(authority.privateKey.publicKey)
            let extensions = try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.map(LeafMint.generalName))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(leafKey.publicKey))
                AuthorityKeyIdentifier(keyIdentifier: try authority.certificate.extensions.subjectKeyIdentifier?.keyIdentifier
                    ?? SubjectKeyIdentifier(hash: issuerKey).keyIdentifier)
            }
            let certificate = try Certificate(version: .v3, serialNumber: Certificate.SerialNumber(),
                                              publicKey: Certificate.PublicKey(leafKey.publicKey),
                                              notValidBefore: now.addingTimeInterval(-86_400),
                                              // Clients refuse a leaf that outlives its issuer.
                                              notValidAfter: min(now.addingTimeInterval(-86_400 + LeafMint.validity), authority.notValidAfter),
                                              issuer: authority.certificate.subject,
                                              subject: try DistinguishedName { OrganizationName("Tapedeck"); CommonName(String(subject.prefix(64))) },
                                              signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                                              issuerPrivateKey: Certificate.PrivateKey(authority.privateKey))
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            let leaf = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
            // The leaf alone: a client trusts the CA from its own store, and a root in the chain
            // only makes OpenSSL call the chain self-signed when it does not.
            var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(leaf)],
                                                                         privateKey: .privateKey(sslKey))
            configuration.applicationProtocols = ["http/1.1"]
            // A connection the server closes (a stop, `Connection: close`) waits this long for
            // the client's close_notify. A client that just drops the socket is not waited for
            // its default 5 s, so a stop ends within its grace and this.
            configuration.shutdownTimeout = LeafMint.closeNoticeWait
            // A client that names another host in SNI than the tunnel's (CONNECT to an
            // address, SNI with the name) gets that name's leaf, a host name's without its
            // trailing dot; a name that is not a host's (a wildcard) gets none.
            if followingSNI { configuration.sslContextCallback = { [weak self] values, promise in
                let asked = values.serverHostname.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }?.lowercased()
                guard let self, let asked, !names.contains(where: { $0.lowercased() == asked }), LeafMint.signable(asked),
                      let other = try? self.minted(for: [asked]) else {
                    promise.succeed(.noChanges)
                    return
                }
                var override = NIOSSLContextConfigurationOverride()
                override.certificateChain = [.certificate(other.sslCertificate)]
                override.privateKey = .privateKey(self.sslKey)
                promise.succeed(override)
            } }
            return Minted(certificate: certificate, sslCertificate: leaf, context: try NIOSSLContext(configuration: configuration))
        } catch let error as LocalCAError {
            throw error
        } catch {
            throw .cannotCreate(path: authority.directory.path, reason: "cannot mint a certificate for \(subject): \(error)")
        }
    }

    /// A DNS name, or an IP address (v4 or v6) as its bytes.
    static func generalName(_ name: String) -> GeneralName {
        let bare = name.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: &v4) { Array($0) })))
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(withUnsafeBytes(of: &v6) { Array($0) })))
        }
        return .dnsName(bare)
    }
}
