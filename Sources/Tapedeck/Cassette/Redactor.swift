import Foundation

/// Replaces credentials with placeholders before an interaction is written.
///
/// By default `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and API-key
/// headers, key-like query items (`api_key`, `token`, `access_token`, `key`, `secret`,
/// `password`, `signature`, `*_token`, `*_key`, …), string values of JSON members with such
/// names at any depth (`{"password": …}`, `{"auth": {"refresh_token": …}}`: what ``SecretLint``
/// would refuse) and the configured JSON Pointer paths (`*` matches any key or index) are replaced. The scheme of `Authorization` and cookie
/// names and attributes stay readable (`Bearer <REDACTED>`, `session=<REDACTED>; Path=/`).
/// Values removed this way are also scrubbed wherever a response echoes them (httpbin's
/// `/headers`, a `Location` header, a text body).
///
/// Replay applies the same redactor to incoming requests before matching, so a request that
/// carries the real token matches the recorded placeholder.
///
/// ```swift
/// let redactor = Redactor(jsonPaths: ["/password", "/users/*/ssn"])
/// let safe = redactor.redact(interaction)
/// ```
public struct Redactor: Sendable, Hashable {
    /// What replaces header values and JSON values.
    public static let placeholder = "<REDACTED>"
    /// What replaces query item values (URL-safe, so URLs stay readable).
    public static let queryPlaceholder = "REDACTED"

    /// Header names (case-insensitive) whose values are replaced.
    public var headers: Set<String>
    /// Query item names (case-insensitive) whose values are replaced, besides key-like ones.
    public var queryItems: Set<String>
    /// Whether query item and JSON member names that look like keys (`*_token`, `*_key`,
    /// `*_secret`, `*password*`) count too.
    public var keyLikeQueryItems: Bool
    /// JSON Pointers into request and response JSON bodies whose values are replaced.
    public var jsonPaths: [String]
    /// JSON member names (case-insensitive) whose string values are replaced wherever they
    /// occur in a JSON body.
    public var jsonKeys: Set<String>

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
    }

    /// The standard redactor.
    public static let standard = Redactor()
    /// A redactor that changes nothing (tests of the lint use it).
    public static let disabled = Redactor(headers: [], queryItems: [], keyLikeQueryItems: false, jsonKeys: [])

    /// Whether the string value of a JSON member with this name is redacted.
    public func redactsJSONKey(_ name: String) -> Bool {
        let lower = name.lowercased()
        return jsonKeys.contains(lower) || (keyLikeQueryItems && Redactor.isKeyLike(lower))
    }

    /// Whether a query item name is redacted.
    public func redactsQueryItem(_ name: String) -> Bool {
        let lower = name.lowercased()
        return queryItems.contains(lower) || (keyLikeQueryItems && Redactor.isKeyLike(lower))
    }

    /// `*_token`, `*_key`, `*_secret`, `*password*`, `*-token`, `*-key` (lower-case input).
    static func isKeyLike(_ lower: String) -> Bool {
        let normalized = lower.replacingOccurrences(of: "-", with: "_")
        return normalized.hasSuffix("_token") || normalized.hasSuffix("_key") || normalized.hasSuffix("_secret")
            || normalized.contains("password") || normalized.hasSuffix("apikey")
    }

    /// The interaction with credentials replaced and their echoes scrubbed from the response.
    public func redact(_ interaction: Interaction) -> Interaction {
        var secrets: [String] = []
        var result = interaction
        result.request = redact(interaction.request, collecting: &secrets)
        var response = interaction.response
        response.headers = redact(response.headers, collecting: &secrets)
        response.url = response.url.map { redact($0, collecting: &secrets) }
        response.body = redactJSON(response.body, contentType: response.headers["Content-Type"], collecting: &secrets)
        let echoes = Set(secrets.filter { $0.utf8.count >= 6 }).sorted { $0.count > $1.count }
        if !echoes.isEmpty {
            response.headers = HTTPHeaders(response.headers.map { field in
                HTTPHeader(name: field.name, value: Redactor.scrub(field.value, secrets: echoes))
            })
            if let text = String(validating: response.body, as: UTF8.self) {
                let scrubbed = Redactor.scrub(text, secrets: echoes)
                if scrubbed != text {
                    response.body = Data(scrubbed.utf8)
                    CassetteCodec.fixContentLength(&response.headers, count: response.body.count)
                }
            }
        }
        result.response = response
        return result
    }

    /// The request as it would be recorded: what replay compares incoming requests in.
    public func redact(_ request: HTTPRequest) -> HTTPRequest {
        var secrets: [String] = []
        return redact(request, collecting: &secrets)
    }

    private func redact(_ request: HTTPRequest, collecting secrets: inout [String]) -> HTTPRequest {
        var result = request
        result.url = redact(request.url, collecting: &secrets)
        result.headers = redact(request.headers, collecting: &secrets)
        if let body = request.body {
            result.body = redactJSON(body, contentType: request.headers["Content-Type"], collecting: &secrets)
            if result.body != body { CassetteCodec.fixContentLength(&result.headers, count: result.body?.count ?? 0) }
        }
        return result
    }

    private func redact(_ headers: HTTPHeaders, collecting secrets: inout [String]) -> HTTPHeaders {
        guard !self.headers.isEmpty else { return headers }
        return HTTPHeaders(headers.map { field in
            let lower = field.name.lowercased()
            guard self.headers.contains(lower) else { return field }
            return HTTPHeader(name: field.name, value: Redactor.redactHeaderValue(field.value, name: lower, collecting: &secrets))
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
                secrets.append(String(pieces[1]))
                secrets.append(value)
                return pieces[0] + " " + placeholder
            }
            fallthrough
        default:
            if value != placeholder { secrets.append(value) }
            return placeholder
        }
    }

    private static func redactCookiePair(_ pair: String, collecting secrets: inout [String]) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return pair }
        let value = pair[pair.index(after: equals)...]
        if value != placeholder, !value.isEmpty { secrets.append(String(value)) }
        return pair[...equals] + placeholder
    }

    private func redact(_ url: URL, collecting secrets: inout [String]) -> URL {
        guard let query = url.query(percentEncoded: true), !query.isEmpty else { return url }
        var changed = false
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, redactsQueryItem(PercentEncoding.decode(String(parts[0]))),
                  parts[1] != Redactor.queryPlaceholder else { return String(item) }
            changed = true
            let value = PercentEncoding.decode(String(parts[1]).replacingOccurrences(of: "+", with: " "))
            secrets.append(value)
            secrets.append(String(parts[1]))
            return parts[0] + "=" + Redactor.queryPlaceholder
        }
        guard changed, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.percentEncodedQuery = items.joined(separator: "&")
        return components.url ?? url
    }

    private func redactJSON(_ body: Data, contentType: String?, collecting secrets: inout [String]) -> Data {
        guard !jsonPaths.isEmpty || !jsonKeys.isEmpty || keyLikeQueryItems, let contentType, MediaType.isJSON(contentType),
              let value = try? JSONParser.parse(body) else { return body }
        var redacted = replaceKeyed(in: value, collecting: &secrets)
        for path in jsonPaths {
            let tokens = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
                $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            }
            redacted = Redactor.replace(in: redacted, tokens: tokens[...], collecting: &secrets)
        }
        guard redacted != value else { return body }
        let layout = CassetteBody.structuredJSON(body)?.1 ?? .compact
        return layout.render(redacted)
    }

    /// Replaces the non-empty string values of members ``redactsJSONKey(_:)`` names, at any depth.
    private func replaceKeyed(in value: JSONValue, collecting secrets: inout [String]) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.map { member in
                if redactsJSONKey(member.key), case .string(let string) = member.value, !string.isEmpty,
                   !SecretLint.isPlaceholder(string) {
                    secrets.append(string)
                    return (member.key, .string(Redactor.placeholder))
                }
                return (member.key, replaceKeyed(in: member.value, collecting: &secrets))
            })
        case .array(let elements):
            return .array(elements.map { replaceKeyed(in: $0, collecting: &secrets) })
        default:
            return value
        }
    }

    private static func replace(in value: JSONValue, tokens: ArraySlice<String>, collecting secrets: inout [String]) -> JSONValue {
        guard let token = tokens.first else {
            switch value {
            case .string(let string) where string != placeholder:
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

    /// Replaces every occurrence of each secret (longest first) with the placeholder.
    static func scrub(_ text: String, secrets: [String]) -> String {
        var result = text
        for secret in secrets where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: placeholder)
        }
        return result
    }
}
