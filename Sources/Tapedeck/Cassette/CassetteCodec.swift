import Foundation

/// Reads and writes the native cassette format: deterministic, diff-friendly JSON.
///
/// ```json
/// {
///   "interactions": [
///     {
///       "duration": 0.0042,
///       "recordedAt": "2026-01-02T10:00:00.123Z",
///       "request": {
///         "headers": [["Accept", "application/json"]],
///         "method": "GET",
///         "url": "http://httpbin.local/get?a=1"
///       },
///       "response": {
///         "body": {"json": {"args": {"a": "1"}}, "layout": "pretty-newline"},
///         "headers": [["Content-Type", "application/json"], ["Set-Cookie", "a=1"], ["Set-Cookie", "b=2"]],
///         "reason": "OK",
///         "status": 200
///       }
///     }
///   ],
///   "metadata": {"baseURL": "http://httpbin.local"},
///   "version": 1
/// }
/// ```
///
/// Keys are sorted, headers are ordered `[name, value]` pairs (repeats kept), bodies are
/// `{"json": …}` (only when `Content-Type` is JSON and the `layout` — `compact`, `compact-newline`,
/// `pretty`, `pretty-newline` — regenerates the bytes exactly), `{"text": …}` (other UTF-8) or
/// `{"base64": …}`; a missing request body means none, a missing response body means empty,
/// a missing response `url` means the request URL. Decoding rewrites `Content-Length` to
/// the regenerated body's length.
public enum CassetteCodec {
    /// The cassette as native-format bytes; the same cassette always gives the same bytes.
    public static func encode(_ cassette: Cassette) -> Data {
        var top: [(key: String, value: JSONValue)] = [
            ("interactions", .array(cassette.interactions.map(encode))),
        ]
        if !cassette.metadata.isEmpty {
            let keys = cassette.metadata.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            top.append(("metadata", .object(keys.map { ($0, .string(cassette.metadata[$0] ?? "")) })))
        }
        top.append(("version", JSONValue(cassette.version)))
        return CassetteJSONLayout.write(.object(top))
    }

    /// Decodes native-format bytes; `source` (usually the file path) names the origin in errors.
    public static func decode(_ data: Data, source: String = "<cassette>") throws(CassetteError) -> Cassette {
        let root: JSONValue
        do {
            root = try JSONParser.parse(data)
        } catch {
            throw .malformedJSON(path: source, line: error.line, column: error.column, pointer: error.path, reason: error.reason)
        }
        let top = FieldReader(value: root, pointer: "", source: source)
        let version = try top.int("version")
        guard version == Cassette.currentVersion else { throw .unsupportedVersion(path: source, version: version) }
        var metadata: [String: String] = [:]
        if let reader = try top.optionalObject("metadata"), case .object(let members) = reader.value {
            for member in members { metadata[member.key] = try reader.string(member.key) }
        }
        let list = try top.array("interactions")
        var interactions: [Interaction] = []
        interactions.reserveCapacity(list.count)
        for element in list { interactions.append(try decodeInteraction(element)) }
        return Cassette(version: version, interactions: interactions, metadata: metadata)
    }

    // MARK: - Encoding

    static func encode(_ interaction: Interaction) -> JSONValue {
        let request = interaction.request
        let response = interaction.response
        var requestMembers: [(key: String, value: JSONValue)] = []
        if let body = request.body {
            requestMembers.append(("body", CassetteBody.encode(body, contentType: request.headers["Content-Type"])))
        }
        requestMembers += [
            ("headers", encode(request.headers)),
            ("method", .string(request.method.rawValue)),
            ("url", .string(request.url.absoluteString)),
        ]
        var responseMembers: [(key: String, value: JSONValue)] = []
        if !response.body.isEmpty {
            responseMembers.append(("body", CassetteBody.encode(response.body, contentType: response.headers["Content-Type"])))
        }
        responseMembers += [
            ("headers", encode(response.headers)),
            ("reason", .string(response.reason)),
            ("status", JSONValue(response.status)),
        ]
        if let url = response.url, url != request.url {
            responseMembers.append(("url", .string(url.absoluteString)))
        }
        return .object([
            ("duration", .number(durationLiteral(response.duration))),
            ("recordedAt", .string(CassetteDate.format(interaction.recordedAt))),
            ("request", .object(requestMembers)),
            ("response", .object(responseMembers)),
        ])
    }

    private static func encode(_ headers: HTTPHeaders) -> JSONValue {
        .array(headers.map { .array([.string($0.name), .string($0.value)]) })
    }

    /// Seconds rounded to microseconds, written as Swift's shortest literal (valid JSON).
    static func durationLiteral(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds > 0 else { return "0" }
        let rounded = (seconds * 1_000_000).rounded() / 1_000_000
        let literal = "\(rounded)"
        return literal.hasSuffix(".0") ? String(literal.dropLast(2)) : literal
    }

    // MARK: - Decoding

    private static func decodeInteraction(_ reader: FieldReader) throws(CassetteError) -> Interaction {
        let requestReader = try reader.object("request")
        let responseReader = try reader.object("response")
        let url = try requestReader.url("url")
        let methodName = try requestReader.string("method")
        guard let method = try? HTTPMethod(validating: methodName) else {
            throw .invalidField(path: reader.source, pointer: requestReader.pointer + "/method",
                                problem: "'\(methodName)' is not a valid HTTP method")
        }
        var request = HTTPRequest(method: method, url: url, headers: try requestReader.headers("headers"))
        if let body = try requestReader.optionalField("body") {
            request.body = try CassetteBody.decode(body.value, at: body.pointer, in: reader.source)
            fixContentLength(&request.headers, count: request.body?.count ?? 0)
        }
        let status = try responseReader.int("status")
        guard (100...999).contains(status) else {
            throw .invalidField(path: reader.source, pointer: responseReader.pointer + "/status",
                                problem: "status \(status) is not an HTTP status code (100–999)")
        }
        var response = HTTPResponse(
            status: status,
            reason: try responseReader.optionalString("reason"),
            headers: try responseReader.headers("headers"),
            url: try responseReader.optionalField("url") == nil ? url : try responseReader.url("url"),
            duration: try reader.optionalDouble("duration") ?? 0
        )
        if let body = try responseReader.optionalField("body") {
            response.body = try CassetteBody.decode(body.value, at: body.pointer, in: reader.source)
        }
        fixContentLength(&response.headers, count: response.body.count)
        let recordedAt = try reader.string("recordedAt")
        guard let date = CassetteDate.parse(recordedAt) else {
            throw .invalidField(path: reader.source, pointer: reader.pointer + "/recordedAt",
                                problem: "'\(recordedAt)' is not an ISO-8601 date such as 2026-01-02T10:00:00.123Z")
        }
        return Interaction(request: request, response: response, recordedAt: date)
    }

    /// Rewrites a present `Content-Length` so it matches the body actually served.
    static func fixContentLength(_ headers: inout HTTPHeaders, count: Int) {
        if let length = headers["Content-Length"], length != String(count) {
            headers["Content-Length"] = String(count)
        }
    }
}

/// ISO-8601 dates with milliseconds in UTC, as cassettes store them (`2026-01-02T10:00:00.123Z`).
///
/// Dates are rounded to the nearest millisecond both ways, so decoding and re-encoding a
/// cassette gives the same bytes.
enum CassetteDate {
    static func format(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, millis) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civil(fromDays: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }

    static func parse(_ text: String) -> Date? {
        let parsed = (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
        return parsed.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : (value - divisor + 1) / divisor
        return (quotient, value - quotient * divisor)
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
