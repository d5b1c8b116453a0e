import Foundation

/// Puts real credentials back where a recorded request holds ``Redactor/placeholder``, so a
/// redacted cassette can be sent live again.
///
/// Each placeholder is filled from a variable named after its field (lower-case, `-` as `_`):
/// `Authorization: Bearer <REDACTED>` from `authorization`, `X-API-Key` from `x_api_key`,
/// `?api_key=%3CREDACTED%3E` from `api_key`, `Cookie: session=<REDACTED>` from `session`, a JSON
/// member `"password": "<REDACTED>"` from `password`; else from the environment variable
/// `TAPEDECK_` + the upper-cased name (`TAPEDECK_AUTHORIZATION`).
///
/// ```swift
/// let fill = CredentialFill(variables: ["authorization": "s3cret"], environment: [:])
/// let live = try fill.apply(to: recorded.request, interaction: 0)
/// ```
public struct CredentialFill: Sendable {
    /// `--var` and `--env-file` values.
    public var variables: [String: String]
    /// The process environment (`TAPEDECK_*`).
    public var environment: [String: String]

    /// Creates a fill over variables and the environment.
    public init(variables: [String: String] = [:], environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.variables = variables
        self.environment = environment
    }

    /// The variable name for a field name: `X-API-Key` → `x_api_key`.
    public static func variableName(_ field: String) -> String {
        field.lowercased().replacingOccurrences(of: "-", with: "_")
    }

    /// The value for a field, from the variables, then `TAPEDECK_NAME`.
    public func value(for field: String) -> String? {
        let name = Self.variableName(field)
        return variables[name] ?? variables[field] ?? environment["TAPEDECK_" + name.uppercased()]
    }

    /// The first field of `request` that holds ``Redactor/placeholder`` (`header Authorization`,
    /// `query api_key`, `body`), or nil when nothing would be filled.
    public static func placeholderField(in request: HTTPRequest) -> String? {
        if let header = request.headers.first(where: { $0.value.contains(Redactor.placeholder) }) { return "header \(header.name)" }
        if let query = request.url.query(percentEncoded: true),
           let item = query.split(separator: "&").first(where: { $0.hasSuffix("=" + Redactor.encodedPlaceholder) || $0.hasSuffix("=" + Redactor.legacyQueryPlaceholder) }) {
            return "query \(PercentEncoding.decode(String(item.prefix { $0 != "=" })))"
        }
        if let body = request.body, String(decoding: body, as: UTF8.self).contains(Redactor.placeholder) { return "body" }
        return nil
    }

    /// The request with every placeholder filled; throws naming the first one nothing fills.
    public func apply(to request: HTTPRequest, interaction: Int) throws(VerifyError) -> HTTPRequest {
        var result = request
        var fields: [HTTPHeader] = []
        for header in request.headers {
            guard header.value.contains(Redactor.placeholder) else { fields.append(header); continue }
            fields.append(HTTPHeader(name: header.name, value: try fillHeader(header, interaction: interaction)))
        }
        result.headers = HTTPHeaders(fields)
        result.url = try fillQuery(request.url, interaction: interaction)
        if let body = request.body, let contentType = request.headers["Content-Type"], MediaType.isJSON(contentType),
           String(decoding: body, as: UTF8.self).contains(Redactor.placeholder),
           let document = try? JSONParser.parse(body) {
            let filled = try fillJSON(document, key: nil, interaction: interaction)
            let layout = CassetteBody.structuredJSON(body)?.1 ?? .compact
            let data = layout.render(filled)
            result.body = data
            CassetteCodec.fixContentLength(&result.headers, count: data.count)
        }
        return result
    }

    /// `place` names where the placeholder is (`header Authorization`), `field` the name its variable comes from.
    private func missing(_ place: String, _ field: String, _ interaction: Int) -> VerifyError {
        let name = Self.variableName(field)
        return .missingCredential(interaction: interaction, field: place, variables: [name, "TAPEDECK_" + name.uppercased()])
    }

    private func fillHeader(_ header: HTTPHeader, interaction: Int) throws(VerifyError) -> String {
        let lower = header.name.lowercased()
        if lower == "cookie" {
            var pairs: [String] = []
            for pair in header.value.components(separatedBy: ";") {
                guard let equals = pair.firstIndex(of: "="), pair[pair.index(after: equals)...] == Redactor.placeholder else {
                    pairs.append(pair); continue
                }
                let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
                guard let value = value(for: name) else { throw missing("Cookie \(name)", name, interaction) }
                pairs.append(pair[...equals] + value)
            }
            return pairs.joined(separator: ";")
        }
        guard let value = value(for: header.name) else { throw missing("header \(header.name)", header.name, interaction) }
        // `Bearer <REDACTED>` keeps its scheme unless the variable carries one.
        if header.value.hasSuffix(" " + Redactor.placeholder), !value.contains(" ") {
            return header.value.replacingOccurrences(of: Redactor.placeholder, with: value)
        }
        return value
    }

    private func fillQuery(_ url: URL, interaction: Int) throws(VerifyError) -> URL {
        guard let query = url.query(percentEncoded: true), query.contains(Redactor.encodedPlaceholder) || query.contains(Redactor.legacyQueryPlaceholder),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items: [String] = []
        for item in query.split(separator: "&", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1] == Redactor.encodedPlaceholder || parts[1] == Redactor.legacyQueryPlaceholder else { items.append(String(item)); continue }
            let name = PercentEncoding.decode(String(parts[0]))
            guard let value = value(for: name) else { throw missing("query \(name)", name, interaction) }
            items.append(parts[0] + "=" + PercentEncoding.encodeQueryComponent(value))
        }
        components.percentEncodedQuery = items.joined(separator: "&")
        return components.url ?? url
    }

    private func fillJSON(_ value: JSONValue, key: String?, interaction: Int) throws(VerifyError) -> JSONValue {
        switch value {
        case .string(Redactor.placeholder):
            guard let key, let real = self.value(for: key) else { throw missing("body member \(key ?? "/")", key ?? "body", interaction) }
            return .string(real)
        case .object(let members):
            var result: [(key: String, value: JSONValue)] = []
            for member in members { result.append((member.key, try fillJSON(member.value, key: member.key, interaction: interaction))) }
            return .object(result)
        case .array(let elements):
            var result: [JSONValue] = []
            for element in elements { result.append(try fillJSON(element, key: key, interaction: interaction)) }
            return .array(result)
        default:
            return value
        }
    }
}
