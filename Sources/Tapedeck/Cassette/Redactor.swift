import Foundation

/// Replaces credentials with placeholders before an interaction is written.
///
/// By default `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and API-key
/// headers, key-like query items (`api_key`, `token`, `access_token`, `key`, `secret`,
/// `password`, `signature`, `*_token`, `*_key`, …), values of JSON members, form fields and
/// multipart fields with such names (`{"password": …}`, `password=…&client_secret=…`: what
/// ``SecretLint`` would refuse) and the configured JSON Pointer paths (`*` matches any key or
/// index) are replaced. The scheme of `Authorization` and cookie names and attributes stay
/// readable (`Bearer <REDACTED>`, `session=<REDACTED>; Path=/`).
///
/// One value, one placeholder, everywhere: every value removed this way is also replaced
/// wherever else it appears in the cassette (``redact(_:knownSecrets:)-(Cassette,_)``): in other
/// interactions' URLs, paths, headers and bodies (an `access_token` from a login response
/// reused in `/sessions/<token>`). The placeholder is always ``placeholder``; inside URLs and
/// form bodies it is percent-encoded (``encodedPlaceholder``), as any `<` or `>` must be there,
/// so a client that sends a replayed placeholder back in a URL sends exactly what was recorded.
/// Values shorter than ``minimumScrubLength`` bytes, and a cookie's plain word of letters under
/// 16 (`enabled`), are replaced in their own field only; elsewhere a value is replaced only
/// where it stands whole, not inside a longer run of letters and digits.
///
/// Replay applies the same redactor to incoming requests before matching, so a request that
/// carries the real token matches the recorded placeholder. Redacting twice changes nothing.
///
/// ```swift
/// let redactor = Redactor(jsonPaths: ["/password", "/users/*/ssn"])
/// let safe = redactor.redact(cassette)
/// ```
public struct Redactor: Sendable, Hashable {
    /// What replaces a credential, everywhere.
    public static let placeholder = "<REDACTED>"
    /// ``placeholder`` percent-encoded, as it appears in URLs and form bodies.
    public static let encodedPlaceholder = "%3CREDACTED%3E"
    /// The query placeholder of cassettes written before one placeholder was used everywhere;
    /// still recognised as a placeholder when reading and matching.
    public static let legacyQueryPlaceholder = "REDACTED"
    /// Secrets shorter than this (in UTF-8 bytes) are replaced in their field but not searched
    /// for elsewhere: a two-letter value would match ordinary text.
    public static let minimumScrubLength = 6

    /// Header names (case-insensitive) whose values are replaced.
    public var headers: Set<String> { didSet { updateTriggers() } }
    /// Query item names (case-insensitive) whose values are replaced, besides key-like ones.
    public var queryItems: Set<String> { didSet { updateTriggers() } }
    /// Whether query item, form field and JSON member names that look like keys (`*_token`,
    /// `*_key`, `*_secret`, `*password*`) count too.
    public var keyLikeQueryItems: Bool { didSet { updateTriggers() } }
    /// JSON Pointers into request and response JSON bodies whose values are replaced.
    public var jsonPaths: [String]
    /// JSON member names (case-insensitive) whose string values are replaced wherever they
    /// occur in a JSON body; form and multipart fields with these names are replaced too.
    public var jsonKeys: Set<String> { didSet { updateTriggers() } }

    /// Words one of which a header's name holds when its value is redacted (the names themselves).
    private(set) var headerTriggers = ByteTriggers([], escapes: "")
    /// Words one of which a query (`%`-escaped) holds when a name in it is redacted.
    private(set) var queryTriggers = ByteTriggers([], escapes: "")
    /// Words one of which a JSON body (`\`-escaped) holds when a member in it is redacted.
    private(set) var jsonTriggers = ByteTriggers([], escapes: "")

    /// The words in every key-like name (`-` is read as `_` in them).
    static let keyLikeWords = ["_token", "-token", "_key", "-key", "_secret", "-secret", "apikey", "password"]

    private mutating func updateTriggers() {
        let keyLike = keyLikeQueryItems ? Redactor.keyLikeWords : []
        headerTriggers = ByteTriggers(headers, escapes: "")
        queryTriggers = ByteTriggers(queryItems.union(keyLike), escapes: "%+")
        jsonTriggers = ByteTriggers(jsonKeys.union(keyLike), escapes: "\\")
    }

    /// The headers redacted by default.
    public static let defaultHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-amz-security-token",
    ]
    /// The query item names redacted by default.
    public static let defaultQueryItems: Set<String> = [
        "api_key", "apikey", "key", "token", "access_token", "refresh_token", "id_token", "auth",
        "secret", "client_secret", "password", "passwd", "signature", "sig", "x-amz-signature",
        "x-amz-credential", "x-amz-security-token", "session", "sessionid",
    ]

    /// The JSON member names redacted by default (the ones ``SecretLint`` looks for).
    public static let defaultJSONKeys: Set<String> = [
        "password", "passwd", "secret", "client_secret", "api_key", "apikey", "access_token",
        "refresh_token", "id_token", "token", "authorization", "private_key",
    ]

    /// Creates a redactor; the defaults cover the usual credentials.
    public init(headers: Set<String> = Redactor.defaultHeaders, queryItems: Set<String> = Redactor.defaultQueryItems,
                keyLikeQueryItems: Bool = true, jsonPaths: [String] = [], jsonKeys: Set<String> = Redactor.defaultJSONKeys) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.queryItems = Set(queryItems.map { $0.lowercased() })
        self.keyLikeQueryItems = keyLikeQueryItems
        self.jsonPaths = jsonPaths
        self.jsonKeys = Set(jsonKeys.map { $0.lowercased() })
        updateTriggers()
    }

    /// The standard redactor.
    public static let standard = Redactor()
    /// A redactor that changes nothing (tests of the lint use it).
    public static let disabled = Redactor(headers: [], queryItems: [], keyLikeQueryItems: false, jsonKeys: [])

    /// Whether the string value of a JSON member with this name is redacted.
    public func redactsJSONKey(_ name: String) -> Bool {
        let lower = Redactor.lowercased(name)
        return jsonKeys.contains(lower) || (keyLikeQueryItems && Redactor.isKeyLike(lower))
    }

    /// Whether a query item name is redacted.
    public func redactsQueryItem(_ name: String) -> Bool {
        let lower = Redactor.lowercased(name)
        return queryItems.contains(lower) || (keyLikeQueryItems && Redactor.isKeyLike(lower))
    }

    /// Whether a form or multipart field with this name is redacted (a query item or JSON member name).
    public func redactsFormField(_ name: String) -> Bool {
        redactsQueryItem(name) || redactsJSONKey(name)
    }

    /// `*_token`, `*_key`, `*_secret`, `*password*`, `*-token`, `*-key` (lower-case input).
    package static func isKeyLike(_ lower: String) -> Bool {
        // The WebSocket handshake's key is a random nonce, not a credential (RFC 6455 §4.1).
        if lower == "sec-websocket-key" { return false }
        var lower = lower
        return lower.withUTF8 { bytes in
            // Compared byte by byte, `-` read as `_`: names are checked for every header and field recorded.
            func endsWith(_ suffix: [UInt8]) -> Bool {
                guard bytes.count >= suffix.count else { return false }
                let start = bytes.count - suffix.count
                for offset in 0..<suffix.count {
                    let byte = bytes[start + offset]
                    if (byte == UInt8(ascii: "-") ? UInt8(ascii: "_") : byte) != suffix[offset] { return false }
                }
                return true
            }
            return keyLikeSuffixes.contains(where: endsWith) || ByteSearch.firstMatch(passwordBytes, in: bytes, from: 0) != nil
        }
    }

    private static let keyLikeSuffixes = ["_token", "_key", "_secret", "apikey"].map { Array($0.utf8) }
    private static let passwordBytes = Array("password".utf8)

    /// `name` lower-cased; itself, without copying, when it has no upper-case ASCII and no other script.
    static func lowercased(_ name: String) -> String {
        name.allBytes { ($0 < UInt8(ascii: "A") || $0 > UInt8(ascii: "Z")) && $0 < 0x80 } ? name : name.lowercased()
    }

    /// Whether `value` is (or holds) a placeholder, in any spelling Tapedeck ever wrote.
    /// cassetter's and vcrpy users' common placeholders count too (`[FILTERED]`).
    public static func isPlaceholder(_ value: String) -> Bool {
        ByteSearch.contains(value, placeholderBytes) || ByteSearch.contains(value, encodedPlaceholderBytes)
            || value == legacyQueryPlaceholder || foreignPlaceholders.contains(value)
    }

    private static let placeholderBytes = Array(placeholder.utf8)
    private static let encodedPlaceholderBytes = Array(encodedPlaceholder.utf8)

    /// `url` with the password of its userinfo (`http://alice:PW@host`) replaced by the
    /// placeholder, and the password added to `secrets`; `url` itself when it has none.
    package static func redactingPassword(_ url: URL, collecting secrets: inout [String]) -> URL {
        guard let password = url.password(percentEncoded: false), !password.isEmpty, !isPlaceholder(password),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        secrets.append(password)
        components.percentEncodedPassword = encodedPlaceholder
        return components.url ?? url
    }

    /// `url` as a log line or a message may show it: a credential in its query or userinfo
    /// redacted by the standard rules.
    package static func shown(_ url: URL) -> String {
        standard.redact(HTTPRequest(url: url)).url.absoluteString
    }

    /// A URL's text as a message quotes it, whether or not it parses: the password of its
    /// userinfo replaced, credential pairs and tokens redacted as free text is, control
    /// characters escaped, cut short.
    package static func shownURLText(_ text: String) -> String {
        var text = text
        if let authority = URLTextAuthority(text, rawPasswords: true), let at = authority.at,
           let colon = text[authority.start..<at].firstIndex(of: ":"), text.index(after: colon) < at {
            text = String(text[...colon]) + encodedPlaceholder + String(text[at...])
        }
        return Excerpt.visible(standard.redact(text: text))
    }

    /// A URL read from a file, quoted in an error that it does not parse: its password and query
    /// credentials redacted (``shownURLText(_:)``), cut to an excerpt.
    package static func quotedURL(_ text: String) -> String {
        "'" + Excerpt.of(shownURLText(text)) + "'"
    }

    /// `url` with its userinfo password replaced (what cassettes, logs and banners show of it).
    package static func redactingPassword(_ url: URL) -> URL {
        var ignored: [String] = []
        return redactingPassword(url, collecting: &ignored)
    }

    /// Whether `value` is exactly a placeholder Tapedeck writes (``placeholder``, or
    /// ``encodedPlaceholder`` in any hex case): on replay it matches any value in its place.
    package static func isWholePlaceholder(_ value: String) -> Bool {
        guard value != placeholder else { return true }
        let bytes = Array(value.utf8)
        guard bytes.count == 14, bytes[0] == UInt8(ascii: "%"), bytes[1] == UInt8(ascii: "3"), bytes[11] == UInt8(ascii: "%"),
              bytes[12] == UInt8(ascii: "3") else { return false }
        let open = bytes[2] | 0x20, close = bytes[13] | 0x20
        return open == UInt8(ascii: "c") && close == UInt8(ascii: "e") && bytes[3..<11].elementsEqual("REDACTED".utf8)
    }

    /// Placeholders other tools write, left alone.
    static let foreignPlaceholders: Set<String> = ["[FILTERED]", "FILTERED", "%5BFILTERED%5D"]

    /// `value` rendered the way `body` was laid out when that is one of a cassette's JSON
    /// layouts, else compact (so the cassette shows it as JSON, not escaped text).
    static func render(_ value: JSONValue, like body: Data) -> Data {
        (CassetteBody.structuredJSON(body)?.1 ?? .compact).render(value)
    }

    /// The cassette with credentials replaced in every interaction, and every value replaced
    /// anywhere replaced everywhere else in it too. `knownSecrets` are values learned elsewhere
    /// (an earlier recording session) that must not appear either. Idempotent.
    public func redact(_ cassette: Cassette, knownSecrets: [String] = []) -> Cassette {
        redacting(cassette, knownSecrets: knownSecrets).cassette
    }

    /// The cassette redacted as ``redact(_:knownSecrets:)`` redacts it, with every value it
    /// replaced: what must not appear in another cassette shown beside this one (`cassette diff`).
    package func redacting(_ cassette: Cassette, knownSecrets: [String] = []) -> (cassette: Cassette, secrets: [String]) {
        let redacted = ChunkedWork.map(cassette.interactions.count) { index in
            var found: [String] = []
            var fields = redactFields(cassette.interactions[index], collecting: &found)
            // A token only its shape gives away (a vendor key in a text body, a JWT in a URL)
            // is replaced too: what the secret lint finds, a cassette redacted whole never holds.
            // The lint names one token of a kind in a field, so it reads the field again until
            // it finds no new one (each round replaces what it found, so this ends).
            var shaped = SecretLint.values(in: fields)
            var rounds = 0
            while !shaped.isEmpty, rounds < Self.maximumTokenRounds {
                rounds += 1
                found += shaped
                fields = SecretScrubber(shaped).scrub(fields)
                shaped = SecretLint.values(in: fields).filter { !found.contains($0) }
            }
            return (interaction: fields, found: found)
        }
        var secrets = knownSecrets
        for each in redacted { secrets += each.found }
        var result = cassette
        result.interactions = redacted.map(\.interaction)
        let scrubbing = SecretScrubber(secrets)
        if !scrubbing.isEmpty { result.interactions = ChunkedWork.map(result.interactions, scrubbing.scrub) }
        return (result, secrets)
    }

    /// The most times a field is read again for tokens its shape gives away: each round finds
    /// every token a text holds, so two suffice; the bound only keeps a pathological text finite.
    static let maximumTokenRounds = 64

    /// Each request's URL as `cassette show` lists it: credentials in its userinfo and query
    /// replaced, tokens its shape gives away too, and every value the cassette holds in a URL,
    /// a credential header or a failure's words scrubbed from it. Bodies are not read (a token
    /// only a login's body holds is replaced by `convert` and `cassette view`, which read
    /// them). Read without copying the cassette redacted.
    package func listedURLs(of cassette: Cassette) -> [String] {
        let each = ChunkedWork.map(cassette.interactions.count) { index in
            var found: [String] = []
            let url = listedURL(of: cassette.interactions[index], readingBodies: false, collecting: &found)
            return (url: url, found: found)
        }
        let scrubbing = SecretScrubber(each.flatMap(\.found))
        return ChunkedWork.map(each.count) { index in
            scrubbing.isEmpty ? each[index].url.text : scrubbing.scrub(url: each[index].url).text
        }
    }

    /// Every value the cassette holds in a credential field, or as a token in a URL: what a
    /// report that shows its requests one by one scrubs from each. Read without copying the
    /// cassette redacted.
    package func secrets(in cassette: Cassette) -> [String] {
        ChunkedWork.map(cassette.interactions.count) { index in
            var found: [String] = []
            _ = listedURL(of: cassette.interactions[index], collecting: &found)
            return found
        }.flatMap { $0 }
    }

    /// The request's URL redacted, adding every value the interaction's fields would have
    /// replaced to `secrets`: ``redactFields(_:collecting:)`` without building the interaction
    /// redacted (a listing of 100,000 spent a third of its time copying them). Bodies are read
    /// only when `readingBodies` (a listing of URLs skips them: parsing every JSON body made
    /// `cassette show` of a 241 MB file take 1.7 times as long).
    private func listedURL(of interaction: Interaction, readingBodies: Bool = true, collecting secrets: inout [String]) -> StoredURL {
        let request = interaction.request, response = interaction.response
        let url = redact(request.storedURL, collecting: &secrets)
        secrets += SecretLint.urlValues(url)
        _ = redact(request.headers, collecting: &secrets)
        _ = redact(response.headers, collecting: &secrets)
        if let own = response.storedURL, own != request.storedURL { _ = redact(own, collecting: &secrets) }
        if let detail = interaction.failure?.detail, !detail.isEmpty { _ = TextRedaction.redact(detail, redactor: self, collecting: &secrets) }
        guard readingBodies else { return url }
        if let body = request.body { _ = redactBody(body, contentType: request.headers["Content-Type"], collecting: &secrets) }
        if response.chunks == nil, response.webSocket == nil {
            _ = redactBody(response.body, contentType: response.headers["Content-Type"], collecting: &secrets)
        } else {
            var copy = response
            _ = copy.mapBody { body, contentType in redactBody(body, contentType: contentType, collecting: &secrets) }
        }
        return url
    }

    /// `old` and `new` redacted for showing side by side: a value either holds in a credential
    /// field is replaced in both. (A credential rotated by a re-record is then no difference.)
    package func redactingPair(_ old: Cassette, _ new: Cassette) -> (old: Cassette, new: Cassette) {
        let first = redacting(old)
        let second = redacting(new, knownSecrets: first.secrets)
        return (Redactor.scrub(first.cassette, secrets: second.secrets), second.cassette)
    }

    /// The cassette with every occurrence of `secrets` replaced (no field rules applied).
    static func scrub(_ cassette: Cassette, secrets: [String]) -> Cassette {
        let scrubbing = SecretScrubber(secrets)
        guard !scrubbing.isEmpty else { return cassette }
        var result = cassette
        result.interactions = cassette.interactions.map(scrubbing.scrub)
        return result
    }

    /// The interaction with credentials replaced and their echoes scrubbed from it.
    public func redact(_ interaction: Interaction) -> Interaction {
        redact(interaction, knownSecrets: []).interaction
    }

    /// The request as it would be recorded: what replay compares incoming requests in.
    public func redact(_ request: HTTPRequest) -> HTTPRequest {
        redact(request, knownSecrets: []).request
    }

    /// The interaction redacted, with `knownSecrets` scrubbed too, and the secrets it held.
    public func redact(_ interaction: Interaction, knownSecrets: [String]) -> (interaction: Interaction, secrets: [String]) {
        var found: [String] = []
        let fields = redactFields(interaction, collecting: &found)
        let scrubbing = SecretScrubber(knownSecrets + found)
        return (scrubbing.isEmpty ? fields : scrubbing.scrub(fields), found)
    }

    /// The request redacted, with `knownSecrets` scrubbed too, and the secrets it held.
    public func redact(_ request: HTTPRequest, knownSecrets: [String]) -> (request: HTTPRequest, secrets: [String]) {
        redact(request, known: SecretScrubber(knownSecrets))
    }

    /// The request redacted, scrubbed of what `known` holds and of its own secrets.
    func redact(_ request: HTTPRequest, known: SecretScrubber) -> (request: HTTPRequest, secrets: [String]) {
        var found: [String] = []
        var result = redactFields(request, collecting: &found)
        if !known.isEmpty { result = known.scrub(result) }
        let own = SecretScrubber(found)
        if !own.isEmpty { result = own.scrub(result) }
        return (result, found)
    }

    /// Free text (a report's failure message, an `actual:` value) with credentials in it
    /// replaced: `"password": "…"` and `password=…` pairs, header lines, bearer tokens, JWTs,
    /// vendor keys, and every value in `knownSecrets`.
    public func redact(text: String, knownSecrets: [String] = []) -> String {
        var secrets = knownSecrets + SecretLint.vendorValues(in: text)
        let redacted = TextRedaction.redact(text, redactor: self, collecting: &secrets)
        return SecretScrubber(secrets).scrub(text: redacted)
    }

    /// `text` with bearer tokens and JWTs replaced (the rule free text and command lines share),
    /// and how many were.
    package static func redactTokens(in text: String) -> (text: String, count: Int) {
        var found: [String] = []
        let result = TextRedaction.tokens(in: text, collecting: &found)
        return (result, found.count)
    }

    // MARK: - Field rules

    /// The interaction with its fields' credentials replaced (no value scrubbed elsewhere),
    /// adding each value replaced to `secrets`.
    func redactFields(_ interaction: Interaction, collecting secrets: inout [String]) -> Interaction {
        var result = interaction
        result.request = redactFields(interaction.request, collecting: &secrets)
        var response = interaction.response
        response.headers = redact(response.headers, collecting: &secrets)
        // A response answered at the request's URL (most) takes the request's redacted URL.
        response.storedURL = response.storedURL.map { $0 == interaction.request.storedURL ? result.request.storedURL : redact($0, collecting: &secrets) }
        response.mapBody { body, contentType in redactBody(body, contentType: contentType, collecting: &secrets) }
        result.response = response
        // A recorded failure's words may quote the URL or a header (`… ?access_token=… with
        // Bearer …`): free-text rules, then the values the fields held.
        if var failure = interaction.failure, !failure.detail.isEmpty {
            failure.detail = TextRedaction.redact(failure.detail, redactor: self, collecting: &secrets)
            result.failure = failure
        }
        return result
    }

    private func redactFields(_ request: HTTPRequest, collecting secrets: inout [String]) -> HTTPRequest {
        var result = request
        result.storedURL = redact(request.storedURL, collecting: &secrets)
        result.headers = redact(request.headers, collecting: &secrets)
        if let body = request.body {
            result.body = redactBody(body, contentType: request.headers["Content-Type"], collecting: &secrets)
            if result.body != body { CassetteCodec.fixContentLength(&result.headers, count: result.body?.count ?? 0) }
        }
        return result
    }

    private func redact(_ headers: HTTPHeaders, collecting secrets: inout [String]) -> HTTPHeaders {
        // Most fields are kept: the headers are rebuilt only when one is redacted. A name that
        // holds none of the redacted names is not lower-cased and looked up.
        // (An empty name holds no word, and may still be one of them.)
        func isURLHeader(_ field: HTTPHeader) -> Bool {
            (field.name.utf8.count == 8 || field.name.utf8.count == 16) && Redactor.urlHeaders.contains(Redactor.lowercased(field.name))
        }
        guard headers.contains(where: { field in
            (!self.headers.isEmpty && (field.name.isEmpty || headerTriggers.mayMatch(field.name)) && self.headers.contains(Redactor.lowercased(field.name)))
                || isURLHeader(field)
        }) else { return headers }
        return HTTPHeaders(headers.map { field in
            let lower = Redactor.lowercased(field.name)
            // A header the redactor is told to replace is replaced whole, a URL header too.
            if self.headers.contains(lower) { return HTTPHeader(name: field.name, value: Redactor.redactHeaderValue(field.value, name: lower, collecting: &secrets)) }
            if Redactor.urlHeaders.contains(lower) { return HTTPHeader(name: field.name, value: redact(headerURL: field.value, collecting: &secrets)) }
            return field
        })
    }

    static func redactHeaderValue(_ value: String, name: String, collecting secrets: inout [String]) -> String {
        switch name {
        case "cookie":
            return value.components(separatedBy: ";").map { redactCookiePair($0, collecting: &secrets) }.joined(separator: ";")
        case "set-cookie":
            var parts = value.components(separatedBy: ";")
            if !parts.isEmpty { parts[0] = redactCookiePair(parts[0], collecting: &secrets) }
            return parts.joined(separator: ";")
        case "authorization", "proxy-authorization":
            let pieces = value.split(separator: " ", maxSplits: 1)
            if pieces.count == 2 {
                if !isPlaceholder(String(pieces[1])) {
                    secrets.append(String(pieces[1]))
                    secrets.append(value)
                }
                return pieces[0] + " " + placeholder
            }
            fallthrough
        default:
            if !isPlaceholder(value), !value.isEmpty { secrets.append(value) }
            return placeholder
        }
    }

    private static func redactCookiePair(_ pair: String, collecting secrets: inout [String]) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return pair }
        let value = pair[pair.index(after: equals)...]
        // A cookie's plain word (`banner=dismiss`, `fmt=application`) is a preference, not a
        // credential: replaced here, and not searched for in other text, which holds such words.
        if !isPlaceholder(String(value)), !value.isEmpty, !isPlainWord(value) { secrets.append(String(value)) }
        return pair[...equals] + placeholder
    }

    /// Whether `value` is a word of letters under 16.
    static func isPlainWord(_ value: Substring) -> Bool {
        value.utf8.count < 16 && value.utf8.allSatisfy { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
    }

    /// `url` redacted, read from its text first: a URL with no userinfo and no query that a
    /// rule could match (nearly every one) is kept as it is, without parsing it.
    private func redact(_ url: StoredURL, collecting secrets: inout [String]) -> StoredURL {
        if !url.text.containsByte(UInt8(ascii: "@")), !url.text.containsByte(UInt8(ascii: "#")) {
            guard url.withPercentEncodedQuery({ $0.map { !$0.isEmpty && queryTriggers.mayMatch($0) } ?? false }) else { return url }
        }
        let redacted = redact(url.url, collecting: &secrets)
        return redacted.absoluteString == url.text ? url : .parsed(redacted)
    }

    private func redact(_ url: URL, collecting secrets: inout [String]) -> URL {
        let url = Redactor.redactingPassword(url, collecting: &secrets)
        var components: URLComponents?
        if let query = url.query(percentEncoded: true), !query.isEmpty, queryTriggers.mayMatch(query),
           let redacted = FormFields.redact(query, collecting: &secrets, where: redactsQueryItem) {
            components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.percentEncodedQuery = redacted
        }
        // A fragment of pairs (OAuth's `#access_token=…&token_type=bearer`) is read as a query is.
        if let fragment = url.fragment(percentEncoded: true), fragment.containsByte(UInt8(ascii: "=")), queryTriggers.mayMatch(fragment),
           let redacted = FormFields.redact(fragment, collecting: &secrets, where: redactsQueryItem) {
            components = components ?? URLComponents(url: url, resolvingAgainstBaseURL: false)
            components?.percentEncodedFragment = redacted
        }
        return components?.url ?? url
    }

    /// Headers whose value is a URL (a redirect's `Location`): its query and fragment are
    /// redacted as a request's are.
    private static let urlHeaders: Set<String> = ["location", "content-location"]

    /// `value`, a header's URL, redacted as a request's URL is; `value` when nothing changed.
    private func redact(headerURL value: String, collecting secrets: inout [String]) -> String {
        guard value.containsByte(UInt8(ascii: "=")) || value.containsByte(UInt8(ascii: "@")), let url = URL(string: value) else { return value }
        let redacted = redact(url, collecting: &secrets)
        return redacted == url ? value : redacted.absoluteString
    }
}
