import Foundation
import Tapedeck

/// Checks a cassette for what makes it unsafe or useless to replay: credentials left in it,
/// interactions that replay can never reach, and bodies that cannot be decoded.
///
/// ```swift
/// for finding in CassetteLint.findings(in: cassette) { print(finding) }
/// // interactions[3].request.headers.Authorization: bearer token "Bearer eyJh…"
/// ```
package enum CassetteLint {
    /// One problem, located in the cassette.
    package struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The kind of problem.
        package enum Kind: String, Sendable, Hashable {
            /// A credential that redaction missed.
            case secret
            /// An interaction replay can never serve.
            case unreachable
            /// A body that does not decode as its headers say.
            case undecodable
        }

        /// The interaction's index.
        package var interaction: Int
        /// The field, e.g. `response.body`.
        package var field: String
        /// The kind of problem.
        package var kind: Kind
        /// What is wrong and what to do.
        package var message: String

        /// Creates a finding.
        package init(interaction: Int, field: String, kind: Kind, message: String) {
            self.interaction = interaction
            self.field = field
            self.kind = kind
            self.message = message
        }

        /// `interactions[3].response.body: [undecodable] Content-Type is JSON but …`.
        package var description: String { "interactions[\(interaction)].\(field): [\(kind.rawValue)] \(message)" }
    }

    /// Every finding, in interaction order.
    package static func findings(in cassette: Cassette) -> [Finding] {
        var found = SecretLint.findings(in: cassette).map { secret in
            Finding(interaction: secret.interaction, field: fieldPath(secret.field), kind: .secret,
                    message: "\(secret.kind) \"\(secret.excerpt)\"; redact it (Redactor) or re-record with redaction on")
        }
        // One pass over the interactions, across cores, for what each holds by itself.
        found += ChunkedWork.map(cassette.interactions.count) { index in
            let interaction = cassette.interactions[index]
            return (unreachable(interaction, index: index).map { [$0] } ?? [])
                + bodyFindings(interaction.request.headers, interaction.request.body ?? Data(), side: "request", index: index)
                + bodyFindings(interaction.response.headers, interaction.response.body, side: "response", index: index,
                               describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: interaction.request.method,
                                                                                               status: interaction.response.status))
        }.flatMap { $0 }
        return found.sorted { ($0.interaction, $0.field) < ($1.interaction, $1.field) }
    }

    /// `request header Authorization` → `request.headers.Authorization`, `response body /token` → `response.body /token`.
    private static func fieldPath(_ field: String) -> String {
        var words = field.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count >= 2 else { return field }
        let names = ["header": "headers", "query": "query", "body": "body"]
        guard let name = names[words[1]] else { return field }
        words[1] = name
        return words.count == 3 ? "\(words[0]).\(words[1])\(words[1] == "body" ? " " : ".")\(words[2])" : "\(words[0]).\(words[1])"
    }

    /// Interactions identical in request and response to an earlier one. They are not findings:
    /// replay serves identical requests in recorded order, so each copy answers one repeat of
    /// the request; a copy is only worth dropping when the client never sends it twice.
    package static func duplicates(in cassette: Cassette) -> [(interaction: Int, duplicateOf: Int)] {
        let interactions = cassette.interactions
        // Fingerprints are hashed across cores; only the table is filled in order, by index,
        // and interactions are compared only where their hashes are the same.
        let hashes = ChunkedWork.map(interactions, fingerprintHash)
        var firstSeen: [Int: Int] = [:]
        firstSeen.reserveCapacity(interactions.count)
        // Further interactions whose hash an earlier, different one has (almost never).
        var sharingHash: [Int: [Int]] = [:]
        var found: [(interaction: Int, duplicateOf: Int)] = []
        for (index, hash) in hashes.enumerated() {
            guard let first = firstSeen[hash] else {
                firstSeen[hash] = index
                continue
            }
            let earlier = [first] + (sharingHash[hash] ?? [])
            if let original = earlier.first(where: { sameFingerprint(interactions[$0], interactions[index]) }) {
                found.append((index, original))
            } else {
                sharingHash[hash, default: []].append(index)
            }
        }
        return found
    }

    /// The finding for an interaction no request can match: a recorded URL without an http(s)
    /// scheme or a host; nil for every other.
    private static func unreachable(_ interaction: Interaction, index: Int) -> Finding? {
        if hasHTTPHost(interaction.request.urlText) { return nil }
        let url = interaction.request.url
        // Compared in place: lower-casing the scheme made a string for every interaction.
        let scheme = url.scheme ?? ""
        guard !scheme.caseInsensitiveEquals("http") && !scheme.caseInsensitiveEquals("https") || (url.host ?? "").isEmpty else { return nil }
        // A password in the URL's userinfo is not shown (the secret lint reports it on its own).
        return Finding(interaction: index, field: "request.url", kind: .unreachable,
                       message: "'\(Redactor.redactingPassword(url).absoluteString)' is not an http(s) URL with a host, so no request can match it; "
                           + "fix the URL or prune it")
    }

    /// Whether `text` plainly starts with `http://` or `https://` and a host, read from the
    /// text without parsing it. False leaves the answer to Foundation's parts (userinfo, an
    /// empty authority).
    static func hasHTTPHost(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            // `http` and an optional `s`, in any case, then `://`.
            var start = 0
            for letter in "http".utf8 {
                guard start < bytes.count, bytes[start] | 0x20 == letter else { return false }
                start += 1
            }
            if start < bytes.count, bytes[start] | 0x20 == UInt8(ascii: "s") { start += 1 }
            for mark in "://".utf8 {
                guard start < bytes.count, bytes[start] == mark else { return false }
                start += 1
            }
            guard start < bytes.count, bytes[start] != UInt8(ascii: ":"), !StoredURL.endsAuthority(bytes[start]) else { return false }
            for byte in bytes[start...] {
                if StoredURL.endsAuthority(byte) { break }
                // Userinfo, or a percent-encoded host Foundation may not decode: Foundation decides.
                if byte == UInt8(ascii: "@") || byte == UInt8(ascii: "%") { return false }
            }
            return true
        }
    }

    /// An interaction keyed by what makes it a duplicate: method, URL, request body, status,
    /// response body, and headers (the response's `Date` aside). The hash is worked out once,
    /// from the fields themselves (nothing is copied), and only interactions whose hashes agree
    /// are compared.
    /// The hash of what makes two interactions the same for ``duplicates(in:)``: the request,
    /// and the response but for its `Date`.
    private static func fingerprintHash(_ interaction: Interaction) -> Int {
        var hasher = Hasher()
        hasher.combine(interaction.request.method.rawValue)
        hasher.combine(interaction.request.urlText)
        hasher.combine(interaction.request.body)
        hasher.combine(interaction.response.status)
        hasher.combine(interaction.response.body)
        for field in interaction.request.headers.fields { hasher.combine(field) }
        hasher.combine(0xFF)
        for field in responseHeaders(interaction) { hasher.combine(field) }
        return hasher.finalize()
    }

    /// Whether `a` and `b` are the same for ``duplicates(in:)``.
    private static func sameFingerprint(_ a: Interaction, _ b: Interaction) -> Bool {
        a.request.method.rawValue == b.request.method.rawValue
            && a.request.urlText == b.request.urlText && a.request.body == b.request.body
            && a.response.status == b.response.status && a.response.body == b.response.body
            && a.request.headers.fields == b.request.headers.fields
            && responseHeaders(a).elementsEqual(responseHeaders(b))
    }

    private static func responseHeaders(_ interaction: Interaction) -> LazyFilterSequence<[HTTPHeader]> {
        interaction.response.headers.fields.lazy.filter { !$0.name.caseInsensitiveEquals("Date") }
    }

    /// Whether `body` is a stream kept compressed as it came (``StreamMedia/keepsEncoding(_:)``),
    /// and it decodes.
    private static func keptAsItCame(_ headers: HTTPHeaders, _ body: Data) -> Bool {
        guard StreamMedia.keepsEncoding(HTTPResponse(status: 200, headers: headers, body: body)) else { return false }
        var decodedHeaders = headers, decoded = body
        do {
            return try ContentCoding.normalize(headers: &decodedHeaders, body: &decoded) == nil && decoded != body
        } catch {
            return false
        }
    }

    /// What is wrong with a body against its headers. `describesAnotherBody`: an empty body's
    /// `Content-Length` may be the one a GET would get (the answer to a HEAD, a 304).
    private static func bodyFindings(_ headers: HTTPHeaders, _ body: Data, side: String, index: Int,
                                     describesAnotherBody: Bool = false) -> [Finding] {
        var found: [Finding] = []
        func add(_ field: String, _ message: String) {
            found.append(Finding(interaction: index, field: "\(side).\(field)", kind: .undecodable, message: message))
        }
        // A message stream kept compressed as it came is read decoded by its clients, and a
        // cassette keeps it so: not a finding when it decodes, and its bytes are not text.
        let keptCompressed = keptAsItCame(headers, body)
        if let encoding = headers["Content-Encoding"], encoding.lowercased() != "identity", !keptCompressed {
            let still = Inflate.looksGzipped(body) ? " and the body is still gzip-compressed" : ""
            add("headers.Content-Encoding", "\"\(encoding)\" is still set\(still); cassettes store bodies decoded "
                + "(convert the cassette with tapedeck convert to decode it)")
        }
        if let length = headers["Content-Length"], Int(length) != body.count, headers["Content-Encoding"] == nil,
           !(describesAnotherBody && body.isEmpty) {
            add("headers.Content-Length", "says \(length) but the body has \(body.count) bytes")
        }
        guard !body.isEmpty, !keptCompressed, let contentType = headers["Content-Type"] else { return found }
        if MediaType.isJSON(contentType) {
            // Most bodies are found to be JSON without building their tree; the parser reads the
            // rest, and says why one is not.
            guard !JSONSyntaxCheck.isPlainJSON(body) else { return found }
            do {
                _ = try JSONParser.parse(body)
            } catch {
                add("body", "Content-Type is \(MediaType.essence(contentType)) but the body is not valid JSON "
                    + "(\(error.errorDescription ?? "\(error)"))")
            }
        } else if MediaType.isText(contentType), charsetIsUTF8(contentType), String(validating: body, as: UTF8.self) == nil {
            add("body", "Content-Type is \(contentType) but the body is not valid UTF-8")
        }
        return found
    }

    private static func charsetIsUTF8(_ contentType: String) -> Bool {
        let lower = contentType.lowercased()
        guard let range = lower.range(of: "charset=") else { return true }
        let charset = lower[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        return charset == "utf-8" || charset == "utf8" || charset == "us-ascii"
    }
}
