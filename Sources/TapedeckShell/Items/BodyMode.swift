import Foundation
import Tapedeck

/// How body items are encoded: HTTPie's default JSON, `--form` or `--multipart`.
public enum BodyMode: String, Sendable, Hashable, CaseIterable {
    /// Fields as a JSON object (`application/json`); with files, multipart.
    case json
    /// Fields urlencoded (`application/x-www-form-urlencoded`); with files, multipart.
    case form
    /// Always `multipart/form-data`.
    case multipart
}

extension RequestItems {
    /// The body the items describe, or nil when there are no body items.
    ///
    /// - A raw body wins but conflicts with fields and files.
    /// - Files switch `json` and `form` to multipart; fields become text parts there, and a
    ///   raw JSON field (`:=`) is an error because parts carry only text.
    /// - Nested names (`a[b][]=c`) build nested JSON objects and arrays.
    /// - A multipart body is delimited by `boundary`, or a fresh random one when nil.
    public func body(mode: BodyMode, boundary: String? = nil) throws(RequestItemError) -> RequestBody? {
        if let rawBody {
            let items = fields.map(\.item) + files.map { "\($0.name)@\($0.filename ?? "")" }
            guard items.isEmpty else { throw .rawBodyWithItems(items: items) }
            return .raw(rawBody, contentType: rawBodyContentType ?? Self.rawContentType(for: rawBody))
        }
        let effective: BodyMode = files.isEmpty ? mode : .multipart
        switch effective {
        case .json:
            guard !fields.isEmpty else { return nil }
            return .json(try NestedJSONBuilder.build(fields))
        case .form:
            guard !fields.isEmpty else { return nil }
            if let raw = fields.first(where: \.isRawJSON) { throw .jsonFieldInForm(item: raw.item) }
            return .form(formFields)
        case .multipart:
            if let raw = fields.first(where: \.isRawJSON) { throw .jsonFieldInForm(item: raw.item) }
            let parts = fields.map { MultipartPart.field(name: $0.name, value: $0.value.stringValue ?? "") } + files
            return .multipart(parts, boundary: boundary ?? MultipartPart.makeBoundary())
        }
    }

    /// The `Content-Type` of a raw body (`--raw`, a heredoc, standard input) that names none:
    /// `application/json` when the whole text parses as JSON, else `text/plain; charset=utf-8`
    /// (`application/octet-stream` for bytes that are not UTF-8). An explicit `Content-Type`
    /// header always wins.
    public static func rawContentType(for body: Data) -> String {
        if (try? JSONParser.parse(body)) != nil { return "application/json" }
        return String(data: body, encoding: .utf8) == nil ? "application/octet-stream" : "text/plain; charset=utf-8"
    }

    /// Headers HTTPie adds for a JSON body: `Accept: application/json, */*;q=0.5`, unless set.
    public func defaultHeaders(mode: BodyMode) -> HTTPHeaders {
        var extra = HTTPHeaders()
        if mode == .json, rawBody == nil, files.isEmpty, !fields.isEmpty, !headers.contains("Accept") {
            extra["Accept"] = "application/json, */*;q=0.5"
        }
        return extra
    }

    /// A request to `url` with these items: query appended, headers added, body encoded, and
    /// the method implied by the items unless given.
    public func request(method: HTTPMethod? = nil, url: URL, mode: BodyMode) throws -> HTTPRequest {
        let full = try URLComposer.appending(query, to: url)
        var request = HTTPRequest(method: method ?? impliedMethod, url: full)
        request.headers.merge(defaultHeaders(mode: mode))
        for header in headers { try request.headers.add(name: header.name, value: header.value) }
        if let body = try body(mode: mode) { try request.setBody(body) }
        return request
    }
}
