import Foundation
import Yams

/// Reads cassetter's YAML cassettes (`version: 1`, `status: 200`, lower-case header names,
/// typed bodies: `none`, `text`, `binary` as hex, `json` as structured YAML).
///
/// A `type: json` body becomes the bytes cassetter's own replay serves for it (Python's
/// `json.dumps`, see ``PythonJSON``). cassetter has no reason phrase, duration or response URL:
/// reasons are the standard ones, durations 0, and the response URL is the request's.
/// `.yaml` files are told apart from vcrpy's by content (``recognizes(_:)``).
///
/// ```swift
/// let cassette = try CassetterReader.read(data, file: "api.yaml", defaultDate: .now)
/// ```
package enum CassetterReader {
    /// Decodes a cassetter cassette; interactions without `recorded_at` get `defaultDate`.
    package static func read(_ data: Data, file: String, defaultDate: Date, limits: BodyLimits = BodyLimits()) throws(InteropError) -> Cassette {
        try read(root: YAMLCursor.root(data, file: file), defaultDate: defaultDate, limits: limits)
    }

    /// Whether YAML bytes are a cassette in cassetter's dialect (for naming a file's format).
    package static func recognizes(_ data: Data) -> Bool {
        (try? YAMLCursor.root(data, file: "")).map(recognizes) ?? false
    }

    /// Whether a parsed YAML document is in cassetter's dialect: its first interaction has a
    /// plain `status` and `body: {type: …}` mappings (vcrpy writes `status: {code, message}`
    /// and `body: {string: …}`).
    static func recognizes(_ root: YAMLCursor) -> Bool {
        guard case .mapping = root.node, let items = try? root.optional("interactions")?.sequence(),
              let first = items.first, let response = try? first.optional("response"),
              let status = try? response.optional("status"), case .scalar = status.node else { return false }
        let request = (try? first.optional("request")) ?? nil
        let bodies = [(try? request?.optional("body")) ?? nil, (try? response.optional("body")) ?? nil]
        return bodies.contains { body in
            guard let body, case .mapping = body.node else { return false }
            return ((try? body.optional("type")) ?? nil) != nil
        }
    }

    static func read(root: YAMLCursor, defaultDate: Date, limits: BodyLimits) throws(InteropError) -> Cassette {
        if let version = try root.optional("version"), try version.int() != 1 {
            throw version.failure("cassetter cassette version \(try version.int()) is not supported; Tapedeck reads version 1")
        }
        var interactions: [Interaction] = []
        for item in try root.optional("interactions")?.sequence() ?? [] {
            interactions.append(try interaction(item, defaultDate: defaultDate, limits: limits))
        }
        return Cassette(interactions: interactions)
    }

    private static func interaction(_ item: YAMLCursor, defaultDate: Date, limits: BodyLimits) throws(InteropError) -> Interaction {
        let requestCursor = try item.required("request")
        let methodCursor = try requestCursor.required("method")
        guard let method = FieldValue.method(try methodCursor.string()) else {
            throw methodCursor.failure("not an HTTP method (\(methodCursor.kind))")
        }
        let uriCursor = try requestCursor.required("uri")
        let uriText = try uriCursor.string()
        guard let url = FieldValue.absoluteURL(uriText) else {
            throw uriCursor.failure("\(Redactor.quotedURL(uriText)) is not an absolute URL (scheme://host/path)")
        }
        let request = HTTPRequest(method: method, url: url, headers: try headers(requestCursor.optional("headers")),
                                  body: try body(requestCursor.optional("body")))
        let responseCursor = try item.required("response")
        let statusCursor = try responseCursor.required("status")
        let status = try statusCursor.int()
        guard HTTPResponse.isFinalStatus(status) else { throw statusCursor.failure(HTTPResponse.finalStatusProblem(status)) }
        var headers = try headers(responseCursor.optional("headers"))
        var body = try body(responseCursor.optional("body")) ?? Data()
        do {
            try ContentCoding.normalize(headers: &headers, body: &body, limits: limits)
        } catch {
            throw (try responseCursor.optional("body") ?? responseCursor).failure("the compressed body cannot be decoded: \(error.reason)")
        }
        CassetteCodec.fixContentLength(&headers, count: body.count, describesAnotherBody: HTTPResponse.lengthDescribesAnotherBody(method: method, status: status))
        var recordedAt = defaultDate
        if let date = try item.optional("recorded_at"), !date.isNull {
            guard let parsed = RFC3339Date.parse(try date.string()) else {
                throw date.failure("not an RFC 3339 timestamp (\(date.kind))")
            }
            recordedAt = parsed
        }
        return Interaction(request: request, response: HTTPResponse(status: status, headers: headers, body: body, url: url),
                           recordedAt: recordedAt)
    }

    /// `{name: [values]}` (a single value is accepted too).
    private static func headers(_ cursor: YAMLCursor?) throws(InteropError) -> HTTPHeaders {
        guard let cursor, !cursor.isNull else { return [:] }
        var headers = HTTPHeaders()
        for (name, value) in try cursor.mapping() {
            if case .sequence = value.node {
                for item in try value.sequence() { headers.append(name: name, value: try item.string()) }
            } else {
                headers.append(name: name, value: try value.string())
            }
        }
        headers.remove(name: "Transfer-Encoding")
        return headers
    }

    /// `{type: none}` is nil; `text` its UTF-8, `binary` its hex digits decoded, `json` as Python dumps it.
    private static func body(_ cursor: YAMLCursor?) throws(InteropError) -> Data? {
        guard let cursor, !cursor.isNull else { return nil }
        let typeCursor = try cursor.required("type")
        let content = try cursor.optional("content")
        switch try typeCursor.string() {
        case "none": return nil
        case "text": return Data(try content.map { cursor throws(InteropError) in try cursor.string() }.map { $0.utf8 } ?? "".utf8)
        case "binary":
            guard let content else { return Data() }
            guard let bytes = hex(try content.string()) else { throw content.failure("binary content is not hex digits") }
            return bytes
        case "json":
            guard let content else { return Data("null".utf8) }
            return Data(PythonJSON.dumps(try json(content)).utf8)
        case let other:
            throw typeCursor.failure("unknown body type \"\(other)\"; cassetter writes none, text, binary or json")
        }
    }

    private static func hex(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var data = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = PercentEncoding.hexValue(digits[index]), let low = PercentEncoding.hexValue(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    /// A YAML node as JSON, with YAML 1.2's core schema for plain scalars (cassetter's loader).
    static func json(_ cursor: YAMLCursor) throws(InteropError) -> JSONValue {
        switch cursor.node {
        case .mapping:
            var members: [(key: String, value: JSONValue)] = []
            for (key, value) in try cursor.mapping() { members.append((key, try json(value))) }
            return .object(members)
        case .sequence:
            var elements: [JSONValue] = []
            for element in try cursor.sequence() { elements.append(try json(element)) }
            return .array(elements)
        case .scalar(let scalar):
            let tag = scalar.tag.description
            guard scalar.style == .plain || scalar.style == .any, !tag.hasSuffix(":str") else { return .string(scalar.string) }
            let text = scalar.string
            if cursor.isNull { return .null }
            switch text {
            case "true", "True", "TRUE": return .bool(true)
            case "false", "False", "FALSE": return .bool(false)
            default: break
            }
            if isInteger(text) { return .number(text.hasPrefix("+") ? String(text.dropFirst()) : text) }
            if isFloat(text), let value = Double(text), value.isFinite { return .number("\(value)") }
            return .string(text)
        case .alias:
            // Yams resolves aliases while composing; an unresolved one is named, not read.
            throw cursor.failure("expected a value, found \(cursor.kind)")
        }
    }

    private static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
        return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
    }

    private static func isFloat(_ text: String) -> Bool {
        text.range(of: #"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$"#, options: .regularExpression) != nil
    }
}
