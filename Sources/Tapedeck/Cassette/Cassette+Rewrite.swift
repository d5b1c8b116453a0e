import Foundation

extension Cassette {
    /// A copy whose requests, response URLs, `Location`/`Host` headers and text bodies say
    /// `newOrigin` wherever they said `oldOrigin`: record against `http://127.0.0.1:8080`,
    /// replay as `http://httpbin.local`.
    ///
    /// ```swift
    /// let portable = cassette.rewritingOrigin(from: URL(string: "http://127.0.0.1:53211")!,
    ///                                         to: URL(string: "http://httpbin.local")!)
    /// ```
    public func rewritingOrigin(from oldOrigin: URL, to newOrigin: URL) -> Cassette {
        var copy = self
        copy.rewriteOrigin(from: oldOrigin, to: newOrigin)
        return copy
    }

    /// ``rewritingOrigin(from:to:)`` in place: a cassette no one else holds keeps one copy of
    /// each interaction while it is rewritten, not two.
    package mutating func rewriteOrigin(from oldOrigin: URL, to newOrigin: URL) {
        let replacements = Cassette.originReplacements(from: oldOrigin, to: newOrigin)
        guard !replacements.isEmpty else { return }
        let bytes = ByteReplacements(replacements)
        ChunkedWork.update(&interactions) { $0.rewriting(bytes) }
        if let base = metadata[MetadataKey.baseURL] { metadata[MetadataKey.baseURL] = Cassette.apply(replacements, to: base) }
    }

    /// The origin the cassette was recorded at: its ``baseURL``'s, else its first request's.
    public var recordedOrigin: URL? {
        guard let url = baseURL ?? interactions.first?.request.url, let scheme = url.scheme, url.host != nil else { return nil }
        return URL(string: scheme + "://" + url.authority)
    }

    /// A copy served as if recorded at `origin` (``rewritingOrigin(from:to:)`` from ``recordedOrigin``):
    /// replay a cassette recorded against `http://httpbin.local` for a client pointed at `http://127.0.0.1:8080`.
    public func rewritingOrigin(to origin: URL) -> Cassette {
        guard let recordedOrigin else { return self }
        return rewritingOrigin(from: recordedOrigin, to: origin)
    }

    /// `scheme://host:port` and `host:port` pairs, longest first.
    package static func originReplacements(from oldOrigin: URL, to newOrigin: URL) -> [(String, String)] {
        func parts(_ url: URL) -> (origin: String, authority: String)? {
            guard let scheme = url.scheme, url.host != nil else { return nil }
            return (scheme + "://" + url.authority, url.authority)
        }
        guard let old = parts(oldOrigin), let new = parts(newOrigin), old.origin != new.origin else { return [] }
        return [(old.origin, new.origin), (old.authority, new.authority)]
    }

    /// `text` with each pair's first replaced by its second, pair after pair.
    package static func apply(_ replacements: [(String, String)], to text: String) -> String {
        ByteSearch.replacing(replacements, in: text)
    }
}

extension Interaction {
    func rewriting(_ replacements: [(String, String)]) -> Interaction {
        rewriting(ByteReplacements(replacements))
    }

    /// ``rewriting(_:)-(_,String)`` with the pairs already as bytes.
    func rewriting(_ replacements: ByteReplacements) -> Interaction {
        func url(_ url: StoredURL) -> StoredURL {
            let text = url.text
            let rewritten = ByteSearch.replacing(replacements, in: text)
            guard rewritten != text else { return url }
            // A plain http(s) URL is kept as text without asking Foundation (``StoredURL/plain(_:)``):
            // a parse of each would take more than the rest of serving a cassette at another origin.
            if let plain = StoredURL.plain(rewritten) { return plain }
            guard let parsed = URL(string: rewritten) else { return url }
            return StoredURL(parsing: rewritten, as: parsed)
        }
        // Headers that name no origin (most) are kept as they are, not copied.
        func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
            var fields: [HTTPHeader]?
            for (index, field) in headers.fields.enumerated() {
                let value = ByteSearch.replacing(replacements, in: field.value)
                guard value != field.value else { continue }
                if fields == nil { fields = headers.fields }
                fields?[index] = HTTPHeader(name: field.name, value: value)
            }
            return fields.map { HTTPHeaders($0) } ?? headers
        }
        func body(_ data: Data) -> Data {
            ByteSearch.replacing(replacements, in: data)
        }
        var copy = self
        copy.request.storedURL = url(request.storedURL)
        copy.request.headers = headers(request.headers)
        copy.request.body = request.body.map(body)
        // A response answered at the request's URL (most) shares the rewritten one.
        copy.response.storedURL = response.storedURL.map { $0 == request.storedURL ? copy.request.storedURL : url($0) }
        copy.response.headers = headers(response.headers)
        copy.response.mapBody(describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: request.method, status: response.status)) { data, _ in body(data) }
        if let body = copy.request.body { CassetteCodec.fixContentLength(&copy.request.headers, count: body.count) }
        return copy
    }
}
