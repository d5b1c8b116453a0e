import Foundation

/// Replaces known secret values wherever they appear in an interaction: URLs (path, query),
/// header values and bodies. Raw occurrences become ``Redactor/placeholder``; percent- or
/// form-encoded ones, and any inside a URL or a form body, ``Redactor/encodedPlaceholder``.
/// JSON bodies are changed in their string values only, so they stay valid JSON.
struct SecretScrubber {
    private struct Secret {
        var raw: String
        /// Its percent-encoded and form-encoded spellings that differ from `raw`.
        var encoded: [String]
    }

    private let secrets: [Secret]

    /// One spelling to find: its bytes, and whether it is a secret's raw spelling (replaced by
    /// the placeholder in free text) or an encoded one (by the encoded placeholder).
    private struct Needle {
        var bytes: [UInt8]
        var isRaw: Bool
    }

    /// Every spelling, longest first, and the spellings by their first four bytes: with many
    /// secrets (a cassette whose every request signs with its own key), a text is read once,
    /// not once a secret.
    private let needles: [Needle]
    private let byPrefix: [UInt32: [Int]]
    /// Whether a secret holds a character JSON writes escaped (a line break, a quote, a backslash).
    private let hasJSONEscapedSecret: Bool

    /// From how many spellings a text is read once through ``byPrefix`` rather than searched
    /// for each.
    private static let indexedFrom = 24

    /// Keeps the values ``isSearched(_:)`` takes, longest first.
    init(_ values: [String]) {
        var seen = Set<String>()
        secrets = values.filter { SecretScrubber.isSearched($0) && seen.insert($0).inserted }
            .sorted { $0.utf8.count > $1.utf8.count }
            .map { raw in
                let spellings = [PercentEncoding.encodeQueryComponent(raw), FormEncoding.escape(raw)]
                var unique: [String] = []
                for spelling in spellings where spelling != raw && !unique.contains(spelling) { unique.append(spelling) }
                return Secret(raw: raw, encoded: unique)
            }
        let needles = secrets.flatMap { secret in [Needle(bytes: Array(secret.raw.utf8), isRaw: true)] + secret.encoded.map { Needle(bytes: Array($0.utf8), isRaw: false) } }
            .sorted { $0.bytes.count > $1.bytes.count }
        var byPrefix: [UInt32: [Int]] = [:]
        if needles.count >= Self.indexedFrom {
            for (index, needle) in needles.enumerated() { byPrefix[Self.key(needle.bytes, at: 0), default: []].append(index) }
        }
        self.needles = needles
        self.byPrefix = byPrefix
        hasJSONEscapedSecret = secrets.contains { $0.raw.unicodeScalars.contains { $0.value < 0x20 || $0 == "\"" || $0 == "\\" } }
    }

    /// The four bytes at `offset` as one number (every spelling is at least six bytes).
    private static func key(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    /// `text` read once with every spelling replaced where it stands whole: raw ones by the
    /// placeholder (by the encoded one when `encoded`), encoded ones by the encoded placeholder;
    /// nil when nothing was.
    private func indexedScrub(_ text: String, encoded: Bool) -> String? {
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        var index = 0, copied = 0
        scanning: while index + 4 <= bytes.count {
            if let candidates = byPrefix[Self.key(bytes, at: index)] {
                for candidate in candidates {
                    let needle = needles[candidate]
                    let end = index + needle.bytes.count
                    guard end <= bytes.count, bytes[index..<end].elementsEqual(needle.bytes),
                          !(Self.isLetterOrDigit(needle.bytes[0]) && index > 0 && Self.isLetterOrDigit(bytes[index - 1])),
                          !(Self.isLetterOrDigit(needle.bytes[needle.bytes.count - 1]) && end < bytes.count && Self.isLetterOrDigit(bytes[end]))
                    else { continue }
                    result += bytes[copied..<index]
                    result += (needle.isRaw && !encoded ? Redactor.placeholder : Redactor.encodedPlaceholder).utf8
                    index = end
                    copied = end
                    continue scanning
                }
            }
            index += 1
        }
        guard copied > 0 else { return nil }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    var isEmpty: Bool { secrets.isEmpty }


    /// Whether `value` is searched for beyond its own field: at least
    /// ``Redactor/minimumScrubLength`` bytes, and not a placeholder.
    static func isSearched(_ value: String) -> Bool {
        value.utf8.count >= Redactor.minimumScrubLength && !Redactor.isPlaceholder(value)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// `text` with each occurrence of `secret` that stands whole replaced by `placeholder`: one
    /// not inside a longer run of letters and digits (`tok123` is not replaced in `tok1234`).
    static func replacingWhole(_ secret: String, in text: String, with placeholder: String) -> String {
        let haystack = Array(text.utf8), needle = Array(secret.utf8)
        guard let first = needle.first, let last = needle.last, haystack.count >= needle.count else { return text }
        let checksBefore = isLetterOrDigit(first), checksAfter = isLetterOrDigit(last)
        var result: [UInt8] = []
        var index = 0, copied = 0
        while index <= haystack.count - needle.count {
            let end = index + needle.count
            if haystack[index] == first, haystack[index..<end].elementsEqual(needle),
               !(checksBefore && index > 0 && isLetterOrDigit(haystack[index - 1])),
               !(checksAfter && end < haystack.count && isLetterOrDigit(haystack[end])) {
                result += haystack[copied..<index]
                result += placeholder.utf8
                index = end
                copied = end
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return text }
        result += haystack[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Every spelling that is replaced: each secret raw, percent-encoded and form-encoded.
    var spellings: [String] { secrets.flatMap { [$0.raw] + $0.encoded } }

    func scrub(_ interaction: Interaction) -> Interaction {
        var result = interaction
        result.request = scrub(interaction.request)
        var response = interaction.response
        // A response at the request's URL (most) takes the request's scrubbed one.
        response.storedURL = response.storedURL.map { $0 == interaction.request.storedURL ? result.request.storedURL : scrub(url: $0) }
        response.headers = scrub(response.headers)
        response.mapBody { body, contentType in scrub(body: body, contentType: contentType) }
        result.response = response
        if var failure = interaction.failure, !failure.detail.isEmpty {
            failure.detail = scrub(text: failure.detail)
            result.failure = failure
        }
        return result
    }

    func scrub(_ request: HTTPRequest) -> HTTPRequest {
        var result = request
        result.storedURL = scrub(url: request.storedURL)
        result.headers = scrub(request.headers)
        if let body = request.body {
            let scrubbed = scrub(body: body, contentType: request.headers["Content-Type"])
            if scrubbed != body {
                result.body = scrubbed
                CassetteCodec.fixContentLength(&result.headers, count: scrubbed.count)
            }
        }
        return result
    }

    /// Free text: raw values become the placeholder, encoded ones the encoded placeholder.
    func scrub(text: String) -> String {
        if !byPrefix.isEmpty { return indexedScrub(text, encoded: false) ?? text }
        var result = text
        for secret in secrets {
            if result.contains(secret.raw) { result = Self.replacingWhole(secret.raw, in: result, with: Redactor.placeholder) }
            for spelling in secret.encoded where result.contains(spelling) {
                result = Self.replacingWhole(spelling, in: result, with: Redactor.encodedPlaceholder)
            }
        }
        return result
    }

    /// Text that is itself URL-encoded (a URL's path and query, a form body): every spelling
    /// becomes the encoded placeholder.
    private func scrub(encodedText text: String) -> String {
        if !byPrefix.isEmpty { return indexedScrub(text, encoded: true) ?? text }
        var result = text
        for secret in secrets {
            for spelling in [secret.raw] + secret.encoded where result.contains(spelling) {
                result = Self.replacingWhole(spelling, in: result, with: Redactor.encodedPlaceholder)
            }
        }
        return result
    }

    /// The URL with secrets replaced in its userinfo and after its origin (path, query, fragment).
    func scrub(url: URL) -> URL {
        scrub(url: StoredURL.parsed(url)).url
    }

    /// ``scrub(url:)`` read from the URL's text: one kept as text is parsed only when a secret
    /// was replaced in it.
    func scrub(url: StoredURL) -> StoredURL {
        let text = url.text
        guard let parts = URLTextAuthority(text) else { return url }
        // A token used as the user name (`https://ghp_…@github.com`) is replaced too; the host
        // and port never are.
        let userinfo = parts.at.map { scrub(encodedText: String(text[parts.start..<$0])) + "@" } ?? ""
        let authority = userinfo + parts.hostPort(in: text)
        let scrubbed = scrub(encodedText: String(text[parts.end...]))
        guard scrubbed != text[parts.end...] || authority != text[parts.start..<parts.end] else { return url }
        let replaced = String(text[..<parts.start]) + authority + scrubbed
        guard let parsed = URL(string: replaced) else { return url }
        return StoredURL(parsing: replaced, as: parsed)
    }

    private func scrub(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { field in
            let isURL = ["location", "content-location", "referer"].contains(field.name.lowercased())
            return HTTPHeader(name: field.name, value: isURL ? scrub(encodedText: field.value) : scrub(text: field.value))
        })
    }

    private func scrub(body: Data, contentType: String?) -> Data {
        guard !body.isEmpty else { return body }
        guard let text = String(validating: body, as: UTF8.self) else { return scrub(bytes: body) }
        let type = contentType.map(MediaType.essence) ?? ""
        // A secret JSON writes escaped (a PEM key's line breaks) is not in a JSON body's text
        // as it is: such a body is read as JSON all the same.
        let escapedInJSON = hasJSONEscapedSecret && (MediaType.isJSON(type) || MediaType.isJSONLines(type))
        guard escapedInJSON || mayContainSecret(text) else { return body }
        if type == "application/x-www-form-urlencoded" { return Data(scrub(encodedText: text).utf8) }
        if MediaType.isJSONLines(type) { return MediaType.mapJSONLines(body) { scrub(body: $0, contentType: "application/json") } }
        if let contentType, MediaType.isJSON(contentType), let value = try? JSONParser.parse(body) {
            let scrubbed = scrub(json: value)
            guard scrubbed != value else { return body }
            return Redactor.render(scrubbed, like: body)
        }
        return Data(scrub(text: text).utf8)
    }

    /// Bytes that are not text (a MessagePack or Protobuf body or frame) with each secret's
    /// bytes replaced by the placeholder's. The bytes around it may no longer parse (a length
    /// before a string no longer fits it), but no secret reaches the cassette.
    private func scrub(bytes body: Data) -> Data {
        // One pass over the bytes, each position looked up by the two bytes that start it.
        var byStart: [UInt16: [[UInt8]]] = [:]
        for secret in secrets where secret.raw.utf8.count >= max(2, Redactor.minimumScrubLength) {
            let needle = Array(secret.raw.utf8)
            byStart[UInt16(needle[0]) << 8 | UInt16(needle[1]), default: []].append(needle)
        }
        guard !byStart.isEmpty, body.count >= 2 else { return body }
        let bytes = [UInt8](body)
        var output: [UInt8] = []
        var copied = 0, index = 0
        while index + 1 < bytes.count {
            if let candidates = byStart[UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])],
               let needle = candidates.first(where: { index + $0.count <= bytes.count && bytes[index..<(index + $0.count)].elementsEqual($0) }) {
                output += bytes[copied..<index]
                output += Redactor.placeholder.utf8
                index += needle.count
                copied = index
            } else {
                index += 1
            }
        }
        guard copied > 0 else { return body }
        output += bytes[copied...]
        return Data(output)
    }

    private func mayContainSecret(_ text: String) -> Bool {
        if !byPrefix.isEmpty { return indexedScrub(text, encoded: false) != nil }
        return secrets.contains { secret in text.contains(secret.raw) || secret.encoded.contains { text.contains($0) } }
    }

    private func scrub(json value: JSONValue) -> JSONValue {
        switch value {
        case .string(let string): .string(scrub(text: string))
        case .object(let members): .object(members.map { ($0.key, scrub(json: $0.value)) })
        case .array(let elements): .array(elements.map(scrub(json:)))
        default: value
        }
    }
}
