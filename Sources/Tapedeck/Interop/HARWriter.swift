import Foundation

/// Writes HAR 1.2 that HAR tools (browsers' importers, haralyzer, HAR viewers) read.
///
/// Custom fields start with `_`, as the spec asks: `postData._base64Body` holds request
/// bodies that are not UTF-8 text (HAR 1.2 has no encoding for them), `response._url` the
/// answering URL when it is not the request's. Response bodies that are not UTF-8 are
/// base64 with `content.encoding`. A WebSocket session's frames go in Chrome's
/// `_webSocketMessages`.
///
/// ```swift
/// let (har, warnings) = HARWriter.write(cassette)
/// ```
package enum HARWriter {
    /// The creator named in `log.creator`.
    package static let creator: JSONValue = ["name": "Tapedeck", "version": .string(HTTPRequest.tapedeckVersion)]

    /// The HAR bytes (pretty JSON, trailing newline) and what the format could not hold.
    package static func write(_ cassette: Cassette) -> (data: Data, warnings: [ConversionWarning]) {
        var warnings: [ConversionWarning] = []
        var entries: [JSONValue] = []
        entries.reserveCapacity(cassette.interactions.count)
        for (index, interaction) in cassette.interactions.enumerated() {
            entries.append(entry(interaction, index: index, warnings: &warnings))
        }
        var log: [(key: String, value: JSONValue)] = [("version", "1.2"), ("creator", creator)]
        if !cassette.metadata.isEmpty {
            let metadata = cassette.metadata.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }
            log.append(("_tapedeck", .object(metadata)))
        }
        log.append(("entries", .array(entries)))
        var data: Data = JSONWriter.write(.object([("log", .object(log))]), options: .pretty)
        data.append(0x0A)
        return (data, warnings)
    }

    private static func entry(_ interaction: Interaction, index: Int, warnings: inout [ConversionWarning]) -> JSONValue {
        let milliseconds = JSONValue(interaction.response.duration * 1000)
        var members: [(key: String, value: JSONValue)] = [
            ("startedDateTime", .string(RFC3339Date.format(interaction.recordedAt, fractionDigits: 6))),
            ("time", milliseconds),
            ("request", request(interaction.request, index: index, warnings: &warnings)),
            ("response", response(interaction.response, requestURL: interaction.request.url)),
            ("cache", .object([])),
            ("timings", .object([("send", 0), ("wait", milliseconds), ("receive", 0)])),
        ]
        if let frames = interaction.response.webSocket, !frames.isEmpty {
            members += [("_resourceType", "websocket"), ("_webSocketMessages", webSocketMessages(frames, startedAt: interaction.recordedAt))]
        }
        return .object(members)
    }

    /// A WebSocket session's frames as Chrome's DevTools write them (``HARReader`` reads them
    /// back): text as it is, every other kind in base64, each at its time since 1970.
    private static func webSocketMessages(_ frames: [WebSocketMessage], startedAt: Date) -> JSONValue {
        let opcodes = Dictionary(uniqueKeysWithValues: HARReader.webSocketKinds.map { ($0.value, $0.key) })
        return .array(frames.map { frame in
            .object([
                ("type", .string(frame.sender == .client ? "send" : "receive")),
                ("time", JSONValue(startedAt.timeIntervalSince1970 + frame.offset)),
                ("opcode", JSONValue(opcodes[frame.kind] ?? 2)),
                ("data", .string(frame.kind == .text ? String(decoding: frame.data, as: UTF8.self) : frame.data.base64EncodedString())),
            ])
        })
    }

    private static func request(_ request: HTTPRequest, index: Int, warnings: inout [ConversionWarning]) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("method", .string(request.method.rawValue)),
            ("url", .string(request.urlText)),
            ("httpVersion", "HTTP/1.1"),
            ("cookies", .array(requestCookies(request.headers))),
            ("headers", headers(request.headers)),
            ("queryString", .array(queryString(request.url))),
        ]
        if let body = request.body {
            let mimeType = JSONValue.string(request.headers["Content-Type"] ?? "")
            if let text = String(validating: body, as: UTF8.self) {
                members.append(("postData", .object([("mimeType", mimeType), ("text", .string(text))])))
            } else {
                members.append(("postData", .object([
                    ("mimeType", mimeType), ("text", ""), ("_base64Body", .string(body.base64EncodedString())),
                ])))
                warnings.append(ConversionWarning(
                    interaction: index, field: "request.body",
                    message: "\(body.count) bytes that are not UTF-8 text; HAR 1.2 has no encoding for binary "
                        + "request bodies, so they are kept in postData._base64Body, which only Tapedeck reads"))
            }
        }
        members += [("headersSize", -1), ("bodySize", JSONValue(request.body?.count ?? 0))]
        return .object(members)
    }

    private static func response(_ response: HTTPResponse, requestURL: URL) -> JSONValue {
        var content: [(key: String, value: JSONValue)] = [
            ("size", JSONValue(response.body.count)),
            ("mimeType", .string(response.headers["Content-Type"] ?? "")),
        ]
        if let text = String(validating: response.body, as: UTF8.self) {
            content.append(("text", .string(text)))
        } else {
            content += [("text", .string(response.body.base64EncodedString())), ("encoding", "base64")]
        }
        // A HAR holds bodies decoded; one Tapedeck keeps still encoded (a coding it cannot
        // undo, such as br) says so, so that it is read back under its Content-Encoding.
        if response.headers.contains("Content-Encoding") { content.append(("_encoded", .bool(true))) }
        var members: [(key: String, value: JSONValue)] = [
            ("status", JSONValue(response.status)),
            ("statusText", .string(response.reason)),
            ("httpVersion", "HTTP/1.1"),
            ("cookies", .array(response.headers.values(for: "Set-Cookie").map(responseCookie))),
            ("headers", headers(response.headers)),
            ("content", .object(content)),
            ("redirectURL", .string(response.headers["Location"] ?? "")),
            ("headersSize", -1),
            ("bodySize", JSONValue(response.body.count)),
        ]
        if response.url != requestURL { members.append(("_url", .string(response.url?.absoluteString ?? ""))) }
        return .object(members)
    }

    private static func headers(_ headers: HTTPHeaders) -> JSONValue {
        .array(headers.map { .object([("name", .string($0.name)), ("value", .string($0.value))]) })
    }

    private static func queryString(_ url: URL) -> [JSONValue] {
        guard let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery else { return [] }
        return FormEncoding.decode(query).map { .object([("name", .string($0.0)), ("value", .string($0.1))]) }
    }

    private static func requestCookies(_ headers: HTTPHeaders) -> [JSONValue] {
        headers.values(for: "Cookie").flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first?.trimmingCharacters(in: .whitespaces), !name.isEmpty else { return nil }
            let value = parts.count > 1 ? String(parts[1]).trimmingCharacters(in: .whitespaces) : ""
            return .object([("name", .string(name)), ("value", .string(value))])
        }
    }

    /// A HAR cookie object from a `Set-Cookie` value: name, value and the attributes HAR names.
    private static func responseCookie(_ header: String) -> JSONValue {
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        let pair = (parts.first ?? "").split(separator: "=", maxSplits: 1).map(String.init)
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(pair.first ?? "")), ("value", .string(pair.count > 1 ? pair[1] : "")),
        ]
        for attribute in parts.dropFirst() {
            let keyValue = attribute.split(separator: "=", maxSplits: 1).map(String.init)
            switch keyValue.first?.lowercased() {
            case "path": members.append(("path", .string(keyValue.count > 1 ? keyValue[1] : "")))
            case "domain": members.append(("domain", .string(keyValue.count > 1 ? keyValue[1] : "")))
            case "expires": members.append(("expires", .string(keyValue.count > 1 ? keyValue[1] : "")))
            case "httponly": members.append(("httpOnly", true))
            case "secure": members.append(("secure", true))
            default: break
            }
        }
        return .object(members)
    }
}
