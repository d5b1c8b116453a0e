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

    /// Keeps values of at least ``Redactor/minimumScrubLength`` bytes that are not placeholders, longest first.
    init(_ values: [String]) {
        var seen = Set<String>()
        secrets = values.filter { $0.utf8.count >= Redactor.minimumScrubLength && !Redactor.isPlaceholder($0) && seen.insert($0).inserted }
            .sorted { $0.utf8.count > $1.utf8.count }
            .map { raw in
                let spellings = [PercentEncoding.encodeQueryComponent(raw), FormEncoding.escape(raw)]
                var unique: [String] = []
                for spelling in spellings where spelling != raw && !unique.contains(spelling) { unique.append(spelling) }
                return Secret(raw: raw, encoded: unique)
            }
    }

    var isEmpty: Bool { secrets.isEmpty }

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
        var result = text
        for secret in secrets {
            if result.contains(secret.raw) { result = result.replacingOccurrences(of: secret.raw, with: Redactor.placeholder) }
            for spelling in secret.encoded where result.contains(spelling) {
                result = result.replacingOccurrences(of: spelling, with: Redactor.encodedPlaceholder)
            }
        }
        return result
    }

    /// Text that is itself URL-encoded (a URL's path and query, a form body): every spelling
    /// becomes the encoded placeholder.
    private func scrub(encodedText text: String) -> String {
        var result = text
        for secret in secrets {
            for spelling in [secret.raw] + secret.encoded where result.contains(spelling) {
                result = result.replacingOccurrences(of: spelling, with: Redactor.encodedPlaceholder)
            }
        }
        return result
    }

    /// The URL with secrets replaced after its origin (path, query, fragment).
    func scrub(url: URL) -> URL {
        scrub(url: StoredURL.parsed(url)).url
    }

    /// ``scrub(url:)`` read from the URL's text: one kept as text is parsed only when a secret
    /// was replaced in it.
    func scrub(url: StoredURL) -> StoredURL {
        let text = url.text
        guard let scheme = text.firstByteRange(of: "://") else { return url }
        let rest = text[scheme.upperBound...]
        guard let start = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return url }
        let scrubbed = scrub(encodedText: String(text[start...]))
        guard scrubbed != text[start...] else { return url }
        let replaced = String(text[..<start]) + scrubbed
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
        guard !body.isEmpty, let text = String(validating: body, as: UTF8.self), mayContainSecret(text) else { return body }
        let type = contentType.map(MediaType.essence) ?? ""
        if type == "application/x-www-form-urlencoded" { return Data(scrub(encodedText: text).utf8) }
        if let contentType, MediaType.isJSON(contentType), let value = try? JSONParser.parse(body) {
            let scrubbed = scrub(json: value)
            guard scrubbed != value else { return body }
            return Redactor.render(scrubbed, like: body)
        }
        return Data(scrub(text: text).utf8)
    }

    private func mayContainSecret(_ text: String) -> Bool {
        secrets.contains { secret in text.contains(secret.raw) || secret.encoded.contains { text.contains($0) } }
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
