import Foundation

extension Redactor {
    /// A body with credential-named JSON members, form fields and multipart fields (and the
    /// configured JSON paths) replaced.
    package func redactBody(_ body: Data, contentType: String?, collecting secrets: inout [String]) -> Data {
        guard let contentType, !body.isEmpty else { return body }
        if MediaType.isJSON(contentType) { return redactJSON(body, collecting: &secrets) }
        if MediaType.isJSONLines(contentType) { return MediaType.mapJSONLines(body) { redactJSON($0, collecting: &secrets) } }
        switch MediaType.essence(contentType) {
        case "application/x-www-form-urlencoded":
            guard let text = String(validating: body, as: UTF8.self),
                  let redacted = FormFields.redact(text, collecting: &secrets, where: redactsFormField) else { return body }
            return Data(redacted.utf8)
        case "multipart/form-data":
            return MultipartFields.redact(body, contentType: contentType, collecting: &secrets, where: redactsFormField) ?? body
        default:
            return body
        }
    }

    private func redactJSON(_ body: Data, collecting secrets: inout [String]) -> Data {
        guard !jsonPaths.isEmpty || (!jsonKeys.isEmpty || keyLikeQueryItems) && jsonTriggers.mayMatch(body),
              let value = try? JSONParser.parse(body) else { return body }
        // Most bodies hold no credential-named member: they are walked, not rebuilt.
        let keyed = replaceKeyed(in: value, collecting: &secrets)
        if keyed == nil, jsonPaths.isEmpty { return body }
        var redacted = keyed ?? value
        for path in jsonPaths {
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            redacted = Redactor.replace(in: redacted, tokens: tokens[...], collecting: &secrets)
        }
        guard redacted != value else { return body }
        return Redactor.render(redacted, like: body)
    }

    /// The value with the non-empty string values of members ``redactsJSONKey(_:)`` names
    /// replaced, at any depth; nil when there are none (nothing is copied then).
    private func replaceKeyed(in value: JSONValue, collecting secrets: inout [String]) -> JSONValue? {
        switch value {
        case .object(let members):
            var changed: [(key: String, value: JSONValue)]?
            for (offset, member) in members.enumerated() {
                let replacement: JSONValue?
                if redactsJSONKey(member.key), case .string(let string) = member.value, !string.isEmpty,
                   !Redactor.isPlaceholder(string) {
                    secrets.append(string)
                    replacement = .string(Redactor.placeholder)
                } else {
                    replacement = replaceKeyed(in: member.value, collecting: &secrets)
                }
                if let replacement {
                    if changed == nil { changed = members }
                    changed?[offset].value = replacement
                }
            }
            return changed.map(JSONValue.object)
        case .array(let elements):
            var changed: [JSONValue]?
            for (offset, element) in elements.enumerated() {
                guard let replacement = replaceKeyed(in: element, collecting: &secrets) else { continue }
                if changed == nil { changed = elements }
                changed?[offset] = replacement
            }
            return changed.map(JSONValue.array)
        default:
            return nil
        }
    }

    private static func replace(in value: JSONValue, tokens: ArraySlice<String>, collecting secrets: inout [String]) -> JSONValue {
        guard let token = tokens.first else {
            switch value {
            case .string(let string) where !isPlaceholder(string):
                secrets.append(string)
                return .string(placeholder)
            case .number(let literal):
                secrets.append(literal)
                return .string(placeholder)
            case .string, .null: return value
            default: return .string(placeholder)
            }
        }
        let rest = tokens.dropFirst()
        switch value {
        case .object(let members):
            return .object(members.map { member in
                guard token == "*" || member.key == token else { return member }
                return (member.key, replace(in: member.value, tokens: rest, collecting: &secrets))
            })
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                guard token == "*" || String(index) == token else { return element }
                return replace(in: element, tokens: rest, collecting: &secrets)
            })
        default:
            return value
        }
    }
}

/// `application/x-www-form-urlencoded` text (a form body or a URL's query): `+` is a space,
/// `%2B` a plus, pairs split on `&`.
enum FormFields {
    /// The decoded `(name, value)` pairs, in order; a pair without `=` has a nil value.
    static func pairs(_ text: String) -> [(name: String, value: String?)] {
        pairs(text, named: { _ in true })
    }

    /// ``pairs(_:)`` of the fields whose decoded name `wanted` accepts (the others' values are not decoded).
    static func pairs(_ text: String, named wanted: (String) -> Bool) -> [(name: String, value: String?)] {
        text.split(separator: "&").compactMap { item in
            let equals = item.firstIndex(of: "=")
            let name = decode(item[..<(equals ?? item.endIndex)])
            guard wanted(name) else { return nil }
            return (name, equals.map { decode(item[item.index(after: $0)...]) })
        }
    }

    /// Decodes one name or value: `+` is a space, then `%XX` escapes.
    static func decode(_ part: Substring) -> String {
        // Most names and values have nothing to decode.
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(part) }
        return PercentEncoding.decode(String(decoding: part.utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self))
    }

    /// The text with the values of fields `redacts` names replaced by ``Redactor/encodedPlaceholder``
    /// (every other byte kept), or nil when nothing changed.
    static func redact(_ text: String, collecting secrets: inout [String], where redacts: (String) -> Bool) -> String? {
        let items = text.split(separator: "&", omittingEmptySubsequences: false)
        // Only the fields that change are rebuilt; most queries have none and allocate nothing more.
        var replaced: [Int: String] = [:]
        for (index, item) in items.enumerated() {
            guard let equals = item.firstIndex(of: "=") else { continue }
            let name = item[..<equals], raw = item[item.index(after: equals)...]
            guard !raw.isEmpty, redacts(decode(name)) else { continue }
            let value = decode(raw)
            guard !Redactor.isPlaceholder(value), !Redactor.isPlaceholder(String(raw)) else { continue }
            secrets.append(value)
            if String(raw) != value { secrets.append(String(raw)) }
            replaced[index] = name + "=" + Redactor.encodedPlaceholder
        }
        guard !replaced.isEmpty else { return nil }
        return items.indices.map { replaced[$0] ?? String(items[$0]) }.joined(separator: "&")
    }
}

/// `multipart/form-data` bodies: the fields (not files) of each part, found by the boundary.
enum MultipartFields {
    /// The `(name, value)` of each part that is a field (no `filename`), when the body is UTF-8 there.
    static func fields(_ body: Data, contentType: String) -> [(name: String, value: String)] {
        guard let parts = parts(body, contentType: contentType) else { return [] }
        return parts.compactMap { part in
            guard let name = part.name, !part.isFile, let value = String(validating: body[part.content], as: UTF8.self) else { return nil }
            return (name, value)
        }
    }

    /// The body with each field `redacts` names replaced by ``Redactor/placeholder``, or nil when nothing changed.
    static func redact(_ body: Data, contentType: String, collecting secrets: inout [String],
                       where redacts: (String) -> Bool) -> Data? {
        guard let parts = parts(body, contentType: contentType) else { return nil }
        var result = Data()
        var last = body.startIndex
        for part in parts {
            guard let name = part.name, !part.isFile, redacts(name) else { continue }
            let value = String(decoding: body[part.content], as: UTF8.self)
            guard !value.isEmpty, !Redactor.isPlaceholder(value) else { continue }
            secrets.append(value)
            result += body[last..<part.content.lowerBound]
            result += Data(Redactor.placeholder.utf8)
            last = part.content.upperBound
        }
        guard last != body.startIndex else { return nil }
        return result + body[last...]
    }

    /// One part of a multipart body.
    struct Part {
        /// The `name` of its `Content-Disposition`.
        var name: String?
        /// The `filename` of its `Content-Disposition`, for a file.
        var filename: String?
        /// Its `Content-Type`, if it has one.
        var contentType: String?
        /// Where its content sits in the body.
        var content: Range<Data.Index>
        /// Its content.
        var bytes: Data

        var isFile: Bool { filename != nil }

        /// Whether a recorded part (self) matches an incoming one: same name, filename, content
        /// type and bytes, or a redacted field's placeholder in place of any bytes.
        func matches(_ incoming: Part) -> Bool {
            guard name == incoming.name, filename == incoming.filename, contentType == incoming.contentType else { return false }
            return bytes == incoming.bytes || (!isFile && Redactor.isWholePlaceholder(String(decoding: bytes, as: UTF8.self)))
        }
    }

    /// Each part's field name and content range; nil when the boundary is missing.
    static func parts(_ body: Data, contentType: String) -> [Part]? {
        guard let boundary = boundary(contentType) else { return nil }
        let delimiter = Data(("--" + boundary).utf8)
        let headerEnd = Data("\r\n\r\n".utf8)
        var found: [Part] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else { return nil }
        while let next = body.range(of: delimiter, in: cursor..<body.endIndex) {
            defer { cursor = next.upperBound }
            guard let headers = body.range(of: headerEnd, in: cursor..<next.lowerBound) else { continue }
            var end = next.lowerBound
            if end - headers.upperBound >= 2, body[end - 2] == 0x0D, body[end - 1] == 0x0A { end -= 2 }
            let head = String(decoding: body[cursor..<headers.lowerBound], as: UTF8.self)
            let lines = head.split(separator: "\r\n")
            let disposition = lines.first { $0.lowercased().hasPrefix("content-disposition:") }.map(String.init) ?? ""
            let type = lines.first { $0.lowercased().hasPrefix("content-type:") }
                .map { $0.dropFirst("content-type:".count).trimmingHTTPSpace() }
            let content = headers.upperBound..<max(headers.upperBound, end)
            found.append(Part(name: MediaType.parameter("name", in: disposition), filename: MediaType.parameter("filename", in: disposition),
                              contentType: type, content: content, bytes: Data(body[content])))
        }
        return found
    }

    /// `fields` as a `multipart/form-data` body under `contentType`'s boundary (a file field
    /// with no content, as a HAR's `params` give it, keeps its file name and type); nil when
    /// the type names no boundary.
    static func encode(_ fields: [(name: String, value: String, fileName: String?, contentType: String?)], contentType: String) -> Data? {
        guard let boundary = boundary(contentType) else { return nil }
        // Names are quoted as browsers quote them (`"` as %22, line breaks as %0D%0A), and a
        // type with a line break is left out, so no value writes a header of its own; a value
        // holding the boundary would end its part, so the body is not built.
        func quoted(_ text: String) -> String {
            text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
        }
        guard !fields.contains(where: { $0.value.contains("--" + boundary) }) else { return nil }
        var text = ""
        for field in fields {
            text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(quoted(field.name))\""
            if let fileName = field.fileName { text += "; filename=\"\(quoted(fileName))\"" }
            text += "\r\n"
            if let type = field.contentType, !type.isEmpty, !type.contains(where: { $0 == "\r" || $0 == "\n" }) { text += "Content-Type: \(type)\r\n" }
            text += "\r\n\(field.value)\r\n"
        }
        return Data((text + "--\(boundary)--\r\n").utf8)
    }

    private static func boundary(_ contentType: String) -> String? {
        MediaType.parameter("boundary", in: contentType).flatMap { $0.isEmpty ? nil : $0 }
    }

}
