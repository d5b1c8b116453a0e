import Foundation

/// Refuses cassettes that still hold credentials: bearer tokens, JWTs and key-like values
/// in headers, query items and bodies.
///
/// ```swift
/// let findings = SecretLint.findings(in: cassette)
/// // [interaction 0, request header Authorization: bearer token "Bearer abcd…"]
/// try SecretLint.check(cassette, path: "Sessions/login.cassette.json")  // throws CassetteError.secretsFound
/// ```
public enum SecretLint {
    /// One credential found in a cassette.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The interaction's index in the cassette.
        public var interaction: Int
        /// Where it is: `request header Authorization`, `request query api_key`, `response body /token`.
        public var field: String
        /// What it looks like: `bearer token`, `JWT`, `key-like value`, or a vendor format (`GitHub token`, `Slack token`,
        /// `Stripe live key`, `AWS access key ID`, `GitLab token`, `PEM private key`).
        public var kind: String
        /// The start of the value, shortened so the report does not leak it.
        public var excerpt: String

        /// Creates a finding.
        public init(interaction: Int, field: String, kind: String, excerpt: String) {
            self.interaction = interaction
            self.field = field
            self.kind = kind
            self.excerpt = excerpt
        }

        /// "interaction 3, request header Authorization: bearer token "Bearer eyJh…"".
        public var description: String {
            "interaction \(interaction), \(field): \(kind) \"\(excerpt)\""
        }
    }

    /// Throws ``CassetteError/secretsFound(path:findings:context:)`` when anything is found;
    /// `context` words the fixes it names.
    package static func check(_ cassette: Cassette, path: String, context: any FixWording = LibraryFixWording()) throws(CassetteError) {
        let found = findings(in: cassette)
        if !found.isEmpty { throw .secretsFound(path: path, findings: found, context: context) }
    }

    /// Every credential in the cassette, in interaction order (cookie values included); then
    /// every field that redacting the cassette again would still change (redaction is
    /// idempotent, so a cassette Tapedeck saved has none: a value redacted in one place but
    /// left in another is found here).
    public static func findings(in cassette: Cassette) -> [Finding] {
        // Cookie values are found by ``cookieFindings(in:index:)``, named as cookies, rather
        // than as fields redaction would change.
        let redactor = Redactor(headers: Redactor.defaultHeaders.subtracting(["cookie", "set-cookie"]))
        // Each interaction is read once, across cores, for its credentials and for what its
        // fields' redaction changes. Only a value that redaction replaces in one place is
        // scrubbed from every other, so without one (a cassette Tapedeck saved) that is all
        // redacting the cassette again would change, and the cassette is never copied redacted.
        let each = ChunkedWork.map(cassette.interactions.count) { index in
            let interaction = cassette.interactions[index]
            let found = findings(in: interaction, index: index) + cookieFindings(in: interaction, index: index)
            var secrets: [String] = []
            let redacted = redactor.redactFields(interaction, collecting: &secrets)
            return (found: found, scrubs: !secrets.isEmpty, changed: unredacted(interaction, again: redacted, index: index, besides: found))
        }
        let found = each.flatMap(\.found)
        guard each.contains(where: \.scrubs) else { return found + each.flatMap(\.changed) }
        let again = redactor.redact(cassette)
        let compared = ChunkedWork.map(min(cassette.interactions.count, again.interactions.count)) { index in
            unredacted(cassette.interactions[index], again: again.interactions[index], index: index, besides: each[index].found)
        }
        return found + compared.flatMap { $0 }
    }

    /// The fields of interaction `index` that differ between `old` and `again` (it redacted
    /// again), except those already in `found` (its own findings).
    static func unredacted(_ old: Interaction, again new: Interaction, index: Int, besides found: [Finding]) -> [Finding] {
        // Compared first, in place; a value is spelled out only for a field that changed
        // (almost never).
        let differs = [
            old.request.storedURL != new.request.storedURL,
            old.request.headers != new.request.headers,
            old.request.body != new.request.body,
            old.response.storedURL != new.response.storedURL && ownResponseURL(of: old) != nil,
            old.response.headers != new.response.headers,
            old.response.body != new.response.body,
        ]
        guard differs.contains(true) else { return [] }
        let fields = [
            ("request URL", old.request.urlText),
            ("request header", ""),
            ("request body", String(decoding: old.request.body ?? Data(), as: UTF8.self)),
            ("response URL", old.response.url?.absoluteString ?? ""),
            ("response header", ""),
            ("response body", String(decoding: old.response.body, as: UTF8.self)),
        ]
        // A finding in an event, a line or a frame is in the response body the comparison reads.
        let known = Set(found.map { finding -> String in
            let words = finding.field.split(separator: " ")
            if words.first == "WebSocket" || words.dropFirst().first.map({ ["event", "line"].contains($0) }) == true { return "response body" }
            return words.prefix(2).joined(separator: " ").replacingOccurrences(of: "query", with: "URL")
        })
        return zip(fields, differs).compactMap { field, differs in
            guard differs, !known.contains(field.0) else { return nil }
            return Finding(interaction: index, field: field.0, kind: "value redaction would replace (redacted elsewhere in the cassette)",
                           excerpt: mask(field.1))
        }
    }

    /// The credentials in one interaction.
    public static func findings(in interaction: Interaction, index: Int) -> [Finding] {
        credentials(in: interaction).map { Finding(interaction: index, field: $0.field, kind: $0.kind, excerpt: mask($0.value)) }
    }

    /// The values ``findings(in:index:)`` finds, whole (a bearer token without its scheme):
    /// what redacting a whole cassette replaces beside its field rules, so a token only its
    /// shape gives away (a vendor key in a text body, a JWT) is not written or shown either.
    package static func values(in interaction: Interaction) -> [String] {
        credentials(in: interaction).map { credential in
            let value = credential.value
            return startsWithBearer(value) ? String(value.dropFirst(bearer.count)) : value
        }
    }

    /// `body` as its client reads it: decoded when its `Content-Encoding` says it is still
    /// compressed (a message stream kept as it came), so a secret inside is found all the same.
    private static func readable(_ body: Data, headers: HTTPHeaders) -> Data {
        let codings = ContentCoding.codings(of: headers)
        guard !codings.isEmpty else { return body }
        var decodedHeaders = headers, decoded = body
        let left: String?
        do {
            left = try ContentCoding.normalize(headers: &decodedHeaders, body: &decoded)
        } catch {
            return body
        }
        // A gzip or deflate stream cut short (its client left, the server stopped) does not decode
        // whole: it is read as far as it goes.
        if let left, codings == [left], ContentCoding.decoded.contains(left) {
            return Inflate.decodedPrefix(body, gzip: left != "deflate", limit: BodyLimits().decodedLimit(compressedSize: body.count))
        }
        return decoded
    }

    /// The coding of a stream kept compressed as it came that Tapedeck cannot decode (`br`,
    /// `zstd`), so that no secret in it could be found; nil for any other response.
    package static func unreadableCoding(of response: HTTPResponse) -> String? {
        guard StreamMedia.keepsEncoding(response) else { return nil }
        return ContentCoding.codings(of: response.headers).first { !ContentCoding.decoded.contains($0) }
    }

    /// The vendor keys free text holds (`sk_live_…`, `ghp_…`, `AKIA…`, a PEM key), each once:
    /// what free-text redaction replaces beside its credential pairs, bearer tokens and JWTs.
    package static func vendorValues(in text: String) -> [String] {
        vendorSecrets(in: text).map(\.value)
    }

    /// The tokens a URL's text shows by their shape (a JWT, a vendor key, in its path, query or
    /// user name): what a listing of URLs replaces beside the field rules.
    package static func urlValues(_ url: StoredURL) -> [String] {
        urlCredentials(url, side: "request").map(\.value)
    }

    private static func urlCredentials(_ url: StoredURL, side: String) -> [Credential] {
        var found: [Credential] = []
        for item in queryItems(of: url, named: { Redactor.standard.redactsQueryItem($0) }, triggers: Redactor.standard.queryTriggers) {
            if !item.value.isEmpty, !isPlaceholder(item.value) { found.append(Credential(field: "\(side) query \(item.name)", kind: "key-like value", value: item.value)) }
        }
        let text = url.text
        if let jwt = firstJWT(in: text) { found.append(Credential(field: "\(side) URL", kind: "JWT", value: jwt)) }
        if let vendor = vendorSecret(in: text) { found.append(Credential(field: "\(side) URL", kind: vendor.kind, value: vendor.value)) }
        return found
    }

    /// A credential found: where, what it looks like, and its value (never kept in a
    /// ``Finding``, which errors carry and tests print).
    private struct Credential {
        var field: String
        var kind: String
        var value: String
    }

    private static func credentials(in interaction: Interaction) -> [Credential] {
        var found: [Credential] = []
        func add(_ field: String, _ kind: String, _ value: String) {
            found.append(Credential(field: field, kind: kind, value: value))
        }
        let responseURL = ownResponseURL(of: interaction)
        for (side, url, headers, body) in [
            ("request", interaction.request.storedURL, interaction.request.headers, interaction.request.body ?? Data()),
            ("response", responseURL, interaction.response.headers, interaction.response.body),
        ] {
            if let url { found += urlCredentials(url, side: side) }
            for field in headers {
                if let kind = headerKind(field) { add("\(side) header \(field.name)", kind, field.value) }
            }
            if side == "response", StreamMedia.isEventStream(headers) {
                // Each event's data is read whole (JSON split over chunks or data lines included).
                for (number, event) in ServerSentEvents.parse(readable(body, headers: headers)).enumerated() {
                    found += bodyCredentials(Data(event.data.utf8), contentType: "application/json", side: "response event \(number)")
                }
            } else {
                found += bodyCredentials(readable(body, headers: headers), contentType: headers["Content-Type"], side: side)
            }
        }
        // Each frame as ``WebSocketMessage/readable`` says: text and JSON frames as JSON, other
        // binary frames as bytes (a token among them), a close frame's reason as text.
        for (number, frame) in (interaction.response.webSocket ?? []).enumerated() {
            guard let readable = frame.readable else { continue }
            found += bodyCredentials(readable.data, contentType: readable.contentType, side: "WebSocket frame \(number)")
        }
        return found
    }

    /// The cookie values an interaction's `Cookie` and `Set-Cookie` fields hold unredacted, of
    /// at least ``Redactor/minimumScrubLength`` bytes: a session cookie is a credential. (Recording redacts them by default; a session that
    /// keeps them on purpose, with its own redactor, is not refused for them.)
    static func cookieFindings(in interaction: Interaction, index: Int) -> [Finding] {
        var found: [Finding] = []
        for (side, headers) in [("request", interaction.request.headers), ("response", interaction.response.headers)] {
            for field in headers {
                let isCookie = field.name.caseInsensitiveEquals("cookie"), isSetCookie = field.name.caseInsensitiveEquals("set-cookie")
                guard isCookie || isSetCookie else { continue }
                // A Set-Cookie's first pair is the cookie; the rest are its attributes.
                let pairs = field.value.split(separator: ";", omittingEmptySubsequences: true).prefix(isSetCookie ? 1 : .max)
                for pair in pairs {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
                    // Analytics cookies (`_ga`, `_fbp`, `__utma`) carry a visitor's id, not a credential.
                    if analyticsCookiePrefixes.contains(where: { name.hasPrefix($0) }) { continue }
                    let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
                    // A value too short to be a session's (`lang=en`, `seen=1`) is not one.
                    guard value.utf8.count >= Redactor.minimumScrubLength, !isPlaceholder(value),
                          isCredentialCookie(name) || !isReadableSetting(value) else { continue }
                    found.append(Finding(interaction: index, field: "\(side) header \(field.name)", kind: "cookie value",
                                         excerpt: "\(Excerpt.visible(name))=\(mask(value))"))
                }
            }
        }
        return found
    }

    /// Whether a cookie's name says it holds a credential (`session`, `auth`, `remember_token`,
    /// `pw`): its value is one however it reads. The name is read as words (split at `_ - .`
    /// and where a capital follows a small letter), so `author_view` and `keyboard` are not.
    static func isCredentialCookie(_ name: String) -> Bool {
        if Redactor.isKeyLike(name.lowercased()) { return true }
        var words: [String] = [], word = ""
        var previousWasLower = false
        for character in name {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else {
                if character.isUppercase, previousWasLower, !word.isEmpty {
                    words.append(word)
                    word = ""
                }
                word.append(character)
            }
            previousWasLower = character.isLowercase
        }
        if !word.isEmpty { words.append(word) }
        return words.contains { credentialCookieWords.contains($0.lowercased()) }
    }

    /// The words a credential cookie's name holds.
    private static let credentialCookieWords: Set<String> = [
        "session", "sessionid", "sess", "sessid", "sid", "auth", "authentication", "authorization", "token", "pass", "passwd", "password",
        "pw", "pwd", "secret", "remember", "jwt", "key", "apikey", "credential", "credentials",
    ]

    /// Whether a cookie's value, decoded, reads as a setting of words (`Europe/Berlin`,
    /// `en-US`, `dark_mode`): two or more runs of letters, each shorter than a token's 16, and
    /// nothing between them but `/ - _ . , :` or spaces. A session's value has digits or a long
    /// run; a single word is not let through, as a password may be one.
    static func isReadableSetting(_ value: String) -> Bool {
        var runs = 0, run = 0
        for byte in PercentEncoding.decodedBytes(value.utf8) {
            if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                if run == 0 { runs += 1 }
                run += 1
                guard run < 16 else { return false }
            } else if [UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ","),
                       UInt8(ascii: ":"), UInt8(ascii: " ")].contains(byte) {
                run = 0
            } else {
                return false
            }
        }
        return runs >= 2
    }

    /// The names analytics scripts give their cookies.
    private static let analyticsCookiePrefixes = ["_ga", "_gid", "_gat", "_gcl_", "_fbp", "_fbc", "__utm", "_hj", "_clck", "_clsk", "ajs_"]

    /// The response's URL when it is not the request's. A response answered at the request's
    /// URL (most) is read, and reported, once: as the request's.
    private static func ownResponseURL(of interaction: Interaction) -> StoredURL? {
        interaction.response.storedURL.flatMap { $0 == interaction.request.storedURL ? nil : $0 }
    }

    private static let credentialHeaders: Set<String> = ["authorization", "proxy-authorization", "x-api-key", "api-key", "x-auth-token", "x-access-token"]

    /// What any credential a header's value is read for starts with (`Bearer `, a JWT's `eyJ`,
    /// vendor prefixes, a PEM key's end), in either case.
    private static let headerValueTriggers = ByteTriggers(["bearer ", "eyj", "private key-----"] + vendorFormats.flatMap(\.prefixes), escapes: "")
    /// What any credential header's name holds: its whole name, or a key-like word.
    private static let headerNameTriggers = ByteTriggers(credentialHeaders.union(Redactor.keyLikeWords), escapes: "")

    private static func headerKind(_ field: HTTPHeader) -> String? {
        let value = field.value
        // A value none of the token shapes start in, under a name no credential has (a date, a
        // type, a length: most of them), has nothing to find. Every recorded header is read.
        let valueMayHold = headerValueTriggers.mayMatch(value), nameMayBe = headerNameTriggers.mayMatch(field.name)
        guard valueMayHold || nameMayBe, !isPlaceholder(value) else { return nil }
        if valueMayHold {
            if let token = bearerToken(in: value), !isPlaceholder(token) { return "bearer token" }
            if firstJWT(in: value) != nil { return "JWT" }
            if let vendor = vendorSecret(in: value) { return vendor.kind }
        }
        guard nameMayBe else { return nil }
        let lower = Redactor.lowercased(field.name)
        if credentialHeaders.contains(lower) || (Redactor.isKeyLike(lower) && !lower.hasPrefix("x-csrf")) {
            return value.isEmpty ? nil : "key-like value"
        }
        return nil
    }

    private static func bodyCredentials(_ body: Data, contentType: String?, side: String) -> [Credential] {
        guard !body.isEmpty else { return [] }
        var found: [Credential] = []
        if let contentType, MediaType.isJSONLines(contentType) {
            // Each line is a JSON body of its own (NDJSON, JSON Lines).
            var line = 0
            _ = MediaType.mapJSONLines(body) { value in
                found += bodyCredentials(value, contentType: "application/json", side: "\(side) line \(line)")
                line += 1
                return value
            }
            return found
        }
        if let contentType, MediaType.isJSON(contentType) {
            // A JSON body with no credential-like name or token prefix in it has none to find,
            // as JSON or as text (most bodies): it is not parsed.
            guard jsonTriggers.mayMatch(body) else { return [] }
        }
        if let contentType, MediaType.isJSON(contentType), let value = try? JSONParser.parse(body) {
            value.forEachLeaf { leaf, name, trail in
                guard let string = leaf.stringValue, !string.isEmpty, !isPlaceholder(string) else { return }
                let key = name.map(Redactor.lowercased) ?? ""
                let kind: String, excerpt: String
                if let token = bearerToken(in: string), !isPlaceholder(token) {
                    (kind, excerpt) = ("bearer token", string)
                } else if let jwt = firstJWT(in: string) {
                    (kind, excerpt) = ("JWT", jwt)
                } else if let vendor = vendorSecret(in: string) {
                    (kind, excerpt) = (vendor.kind, vendor.value)
                } else if jsonSecretKeys.contains(key) || Redactor.isKeyLike(key) {
                    (kind, excerpt) = ("key-like value", string)
                } else {
                    return
                }
                found.append(Credential(field: "\(side) body \(trail.text)", kind: kind, value: excerpt))
            }
            return found
        }
        guard let text = String(validating: body, as: UTF8.self) else { return binaryCredentials(body, side: side) }
        let fields: [(name: String, value: String?)] = switch contentType.map(MediaType.essence) {
        case "application/x-www-form-urlencoded": FormFields.pairs(text)
        case "multipart/form-data": MultipartFields.fields(body, contentType: contentType ?? "").map { ($0.name, $0.value) }
        default: []
        }
        for field in fields where Redactor.standard.redactsFormField(field.name) {
            guard let value = field.value, !value.isEmpty, !isPlaceholder(value) else { continue }
            found.append(Credential(field: "\(side) body \(field.name)", kind: "key-like value", value: value))
        }
        if !found.isEmpty { return found }
        if let jwt = firstJWT(in: text) {
            found.append(Credential(field: "\(side) body", kind: "JWT", value: jwt))
        } else if let token = bearerToken(in: text), !isPlaceholder(token) {
            found.append(Credential(field: "\(side) body", kind: "bearer token", value: "Bearer " + token))
        } else {
            // Every vendor token the text holds, each once: a cassette redacted whole is then
            // read again once, not once for each token.
            for vendor in vendorSecrets(in: text) { found.append(Credential(field: "\(side) body", kind: vendor.kind, value: vendor.value)) }
        }
        // Bytes of no stated type or a binary one may be MessagePack or Protobuf that happen to
        // be valid UTF-8 (a tag byte 0x0A is a line end): read as such too.
        if found.isEmpty, contentType.map({ binaryTypes.contains(MediaType.essence($0)) }) ?? true {
            return binaryCredentials(body, side: side)
        }
        return found
    }

    /// Media types whose bodies are bytes that may hold strings: read as ``binaryCredentials(_:side:)`` does.
    private static let binaryTypes: Set<String> = [
        "application/octet-stream", "application/x-protobuf", "application/protobuf", "application/vnd.google.protobuf",
        "application/grpc", "application/msgpack", "application/x-msgpack", "application/vnd.msgpack", "application/cbor",
    ]

    /// A token that stands among bytes that are not text (a MessagePack or Protobuf frame, a
    /// binary body): its printable runs are read as text, every other byte a space.
    private static func binaryCredentials(_ body: Data, side: String) -> [Credential] {
        guard jsonTriggers.mayMatch(body) else { return [] }
        let bytes = [UInt8](body)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] >= 0x20, bytes[end] < 0x7F { end += 1 }
            // Each run of printable bytes is read as text, and again without its first byte: in
            // MessagePack and Protobuf a string's length stands right before it, and a length
            // of 48 to 122 reads as a digit or a letter that would join the token's word.
            if end - start >= 8 {
                for from in [start, start + 1] {
                    let text = String(decoding: bytes[from..<end], as: UTF8.self)
                    if let jwt = firstJWT(in: text) { return [Credential(field: "\(side) body", kind: "JWT", value: jwt)] }
                    if let token = bearerToken(in: text), !isPlaceholder(token) {
                        return [Credential(field: "\(side) body", kind: "bearer token", value: "Bearer " + token)]
                    }
                    if let vendor = vendorSecret(in: text) { return [Credential(field: "\(side) body", kind: vendor.kind, value: vendor.value)] }
                }
            }
            start = end + 1
        }
        return []
    }

    private static let jsonSecretKeys = Redactor.defaultJSONKeys

    /// Words one of which a JSON body holds when anything in it is a finding: the names above,
    /// key-like names, and the starts of bearer tokens, JWTs, vendor tokens and PEM keys.
    private static let jsonTriggers = ByteTriggers(
        jsonSecretKeys.union(Redactor.keyLikeWords).union(["bearer ", "eyj", "private key-----"])
            .union(vendorFormats.flatMap(\.prefixes)),
        escapes: "\\")

    static func isPlaceholder(_ value: String) -> Bool {
        Redactor.isPlaceholder(value)
    }

    /// The token after `Bearer ` (case-insensitive) if one of at least 8 token characters follows.
    static func bearerToken(in text: String) -> String? {
        guard let offset = ByteSearch.withBytes(of: text, { ByteSearch.first(bearer, in: $0, ignoringCase: true) }) else { return nil }
        let after = text.utf8.index(text.utf8.startIndex, offsetBy: offset + bearer.count)
        let token = text[after...].prefix { $0.isLetter || $0.isNumber || "-._~+/=<>".contains($0) }
        return token.count >= 8 ? String(token) : nil
    }

    private static let bearer = Array("bearer ".utf8)

    /// Whether `value` is `Bearer ` (any case) and something after it.
    private static func startsWithBearer(_ value: String) -> Bool {
        value.utf8.count > bearer.count && value.utf8.prefix(bearer.count).elementsEqual(bearer) { $0 | 0x20 == $1 | 0x20 }
    }

    /// The first `xxx.yyy.zzz` whose first two parts are base64url JSON objects (`eyJ…`).
    static func firstJWT(in text: String) -> String? {
        ByteSearch.withBytes(of: text, firstJWT)
    }

    /// ``firstJWT(in:)`` of UTF-8 bytes.
    static func firstJWT(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        while start + 3 < bytes.count {
            guard bytes[start] == UInt8(ascii: "e"), bytes[start + 1] == UInt8(ascii: "y"), bytes[start + 2] == UInt8(ascii: "J") else {
                start += 1
                continue
            }
            var index = start
            var dots = 0
            var segmentLengths = [0]
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") {
                    dots += 1
                    if dots > 2 { break }
                    segmentLengths.append(0)
                } else if isBase64URL(byte) {
                    segmentLengths[segmentLengths.count - 1] += 1
                } else {
                    break
                }
                index += 1
            }
            if dots == 2, segmentLengths[0] >= 8, segmentLengths[1] >= 8,
               bytes.count > start + segmentLengths[0] + 4,
               bytes[start + segmentLengths[0] + 1] == UInt8(ascii: "e"), bytes[start + segmentLengths[0] + 2] == UInt8(ascii: "y"),
               bytes[start + segmentLengths[0] + 3] == UInt8(ascii: "J") {
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            start = index > start ? index : start + 1
        }
        return nil
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        PercentEncoding.isUnreserved(byte) && byte != UInt8(ascii: ".") && byte != UInt8(ascii: "~")
    }

    /// `abcdefgh…(32 chars)`: enough to find it, not enough to use it. At most a quarter of the
    /// value is shown, and at most 8 characters; a bearer token's scheme is kept whole.
    static func mask(_ value: String) -> String {
        if startsWithBearer(value) {
            return String(value.prefix(bearer.count)) + mask(String(value.dropFirst(bearer.count)))
        }
        let shown = min(8, value.count / 4)
        return shown == 0 ? String(repeating: "•", count: value.count) : String(value.prefix(shown)) + "…(\(value.count) chars)"
    }

    private static func queryItems(of url: StoredURL, named wanted: (String) -> Bool, triggers: ByteTriggers) -> [(name: String, value: String)] {
        guard url.withPercentEncodedQuery({ $0.map(triggers.mayMatch) ?? false }), let query = url.percentEncodedQuery else { return [] }
        return FormFields.pairs(query, named: wanted).map { ($0.name, $0.value ?? "") }
    }
}
