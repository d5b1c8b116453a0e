import Foundation
import OpenAPIKit
import Tapedeck

/// What a prompt needs from an OpenAPI document: its paths as a tree to list (`ls`), move in
/// (`cd`) and complete, each operation's parameters and body members, and the findings of one
/// exchange.
///
/// ```swift
/// let guide = OpenAPIGuide(spec: try OpenAPISpec.load(URL(fileURLWithPath: "spec.yaml")))
/// guide.children(of: "/users")   // [me [GET], {id} [GET, DELETE]]
/// ```
package struct OpenAPIGuide: Sendable {
    /// A path segment under another: `users`, `{id}`.
    package struct Entry: Sendable, Hashable {
        /// The segment as the document writes it.
        package var name: String
        /// The methods documented at this segment's path, upper-cased in the document's order.
        package var methods: [String]
        /// Whether documented paths go deeper than this segment.
        package var hasChildren: Bool
    }

    /// A documented input of one operation.
    package struct Input: Sendable, Hashable {
        /// Where it goes.
        package enum Place: String, Sendable, Hashable {
            case query, header, path, cookie
            /// A top-level member of a JSON request body.
            case body
        }

        /// The parameter's or member's name.
        package var name: String
        /// Where it goes.
        package var place: Place
        /// Whether the document marks it required.
        package var required: Bool
        /// Whether its schema is a string (or unknown), so HTTPie's `name=value` suits it; other
        /// types take `name:=json`.
        package var isString: Bool
    }

    /// The document.
    package let spec: OpenAPISpec
    private let check: CassetteOpenAPICheck
    private let templates: [[Substring]]
    private let methodsByPath: [String: [String]]

    /// Prepares the document's paths.
    package init(spec: OpenAPISpec) {
        self.spec = spec
        check = CassetteOpenAPICheck(spec: spec)
        var methods: [String: [String]] = [:]
        var templates: [[Substring]] = []
        for (path, item) in spec.document.paths {
            guard let resolved = spec.document.components[item] else { continue }
            templates.append(Self.segments(path.rawValue))
            methods[path.rawValue] = resolved.endpoints.map { $0.method.rawValue.uppercased() }
        }
        self.templates = templates
        methodsByPath = methods
    }

    /// How many paths and operations the document has.
    package var counts: (paths: Int, operations: Int) {
        (methodsByPath.count, methodsByPath.values.reduce(0) { $0 + $1.count })
    }

    /// The first server's URL, when it is absolute (`https://api.example.com/v1`), its
    /// variables at their defaults.
    package var serverURL: URL? {
        guard let url = spec.serverURLs.first, ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
            return nil
        }
        return url
    }

    /// Whether `path` (concrete, such as `/users/42`) is a documented path or lies on the way to
    /// one; a path under a server's base path (`/v1/users` for server `…/v1`) counts too.
    package func knows(_ path: String) -> Bool {
        let parts = Self.segments(documentPath(path))
        return templates.contains { template in
            template.count >= parts.count && zip(template, parts).allSatisfy(Self.segment)
        }
    }

    /// The methods documented for `path` itself (concrete or a template), in the document's
    /// order: those of the template that routes it, literal segments winning (`/users/me`
    /// before `/users/{id}`).
    package func methods(at path: String) -> [String] {
        let parts = Self.segments(documentPath(path))
        return methodsByPath.filter { Self.matches(Self.segments($0.key), parts) }
            .max { (Self.literalCount($0.key), $1.key) < (Self.literalCount($1.key), $0.key) }?.value ?? []
    }

    /// The segments directly under `path`, sorted: literal names first, then templates. Each
    /// has the methods of its own template (`{userId}` those of `/users/{userId}`, not of a
    /// sibling `/users/{id}`).
    package func children(of path: String) -> [Entry] {
        let parts = Self.segments(documentPath(path))
        var names: [String] = []
        var methods: [String: [String]] = [:]
        var deeper: Set<String> = []
        for template in templates where template.count > parts.count && zip(template, parts).allSatisfy(Self.segment) {
            let name = String(template[parts.count])
            if !names.contains(name) { names.append(name) }
            if template.count > parts.count + 1 { deeper.insert(name) }
            let own = "/" + template.prefix(parts.count + 1).joined(separator: "/")
            for method in methodsByPath[own] ?? [] where !(methods[name] ?? []).contains(method) { methods[name, default: []].append(method) }
        }
        return names.sorted { ($0.hasPrefix("{") ? 1 : 0, $0) < ($1.hasPrefix("{") ? 1 : 0, $1) }.map { name in
            Entry(name: name, methods: methods[name] ?? [], hasChildren: deeper.contains(name))
        }
    }

    /// The documented inputs of `method` at `path` (concrete): query, header, path and cookie
    /// parameters, then the JSON request body's top-level members; nil when not documented.
    package func inputs(method: String, path: String) -> [Input]? {
        let parts = Self.segments(documentPath(path))
        let method = method.uppercased()
        let components = spec.document.components
        guard let (template, item) = spec.document.paths.lazy.compactMap({ key, value -> (String, OpenAPI.PathItem)? in
            guard let item = components[value] else { return nil }
            return (key.rawValue, item)
        }).filter({ Self.matches(Self.segments($0.0), parts) })
            .sorted(by: { Self.literalCount($0.0) > Self.literalCount($1.0) }).first,
            let operation = item.endpoints.first(where: { $0.method.rawValue.uppercased() == method })?.operation else { return nil }
        _ = template
        var inputs: [Input] = []
        for either in operation.parameters + item.parameters {
            guard let parameter = components[either] else { continue }
            let place: Input.Place
            switch parameter.location {
            case .query: place = .query
            case .header: place = .header
            case .path: place = .path
            case .cookie: place = .cookie
            case .querystring: continue
            }
            guard !inputs.contains(where: { $0.name == parameter.name && $0.place == place }) else { continue }
            var isString = true
            if case .a(let context) = parameter.schemaOrContent, let schema = components[context.schema] {
                isString = Self.isString(schema, components: components)
            }
            inputs.append(Input(name: parameter.name, place: place, required: parameter.required, isString: isString))
        }
        if let body = operation.requestBody.flatMap({ components[$0] }),
           let entry = body.content.first(where: { MediaType.isJSON($0.key.rawValue) }),
           let schema = components[entry.value]?.schema,
           case .object(_, let object)? = (try? components.lookup(schema))?.value {
            let required = Set(object.requiredProperties)
            for (name, property) in object.properties {
                inputs.append(Input(name: name, place: .body, required: required.contains(name),
                                    isString: Self.isString(property, components: components)))
            }
        }
        return inputs
    }

    /// What is wrong with one exchange by the document: path, method, status, parameters and
    /// both bodies, as `tapedeck cassette check --openapi` reports them. `basePath` (the path of
    /// the base URL the session sends to, `/api`, percent-encoded as sent) may come before the
    /// documented paths.
    package func findings(request: HTTPRequest, response: HTTPResponse, basePath: String? = nil) -> [OpenAPIFinding] {
        check.findings(for: Interaction(request: request, response: response, recordedAt: Date()), at: 0, alsoUnder: basePath)
    }

    /// `path` as the document writes it: as given when a documented path lies on it, else
    /// without the server base path it starts with (`/v1/users` → `/users` for server `…/v1`).
    private func documentPath(_ path: String) -> String {
        let parts = Self.segments(path)
        if templates.contains(where: { $0.count >= parts.count && zip($0, parts).allSatisfy(Self.segment) }) { return path }
        for base in spec.basePaths() where path == base || path.hasPrefix(base + "/") {
            let rest = String(path.dropFirst(base.count))
            return rest.isEmpty ? "/" : rest
        }
        return path
    }

    private static func isString(_ schema: JSONSchema, components: OpenAPI.Components) -> Bool {
        switch ((try? components.lookup(schema)) ?? schema).value {
        case .boolean, .number, .integer, .object, .array, .null: false
        default: true
        }
    }

    private static func segments(_ path: String) -> [Substring] {
        path.split(separator: "/")
    }

    private static func literalCount(_ template: String) -> Int {
        segments(template).filter { !$0.hasPrefix("{") }.count
    }

    /// Whether a template segment accepts a concrete one (or the same template segment).
    private static func segment(_ template: Substring, _ part: Substring) -> Bool {
        template == part || (template.hasPrefix("{") && template.hasSuffix("}"))
    }

    private static func matches(_ template: [Substring], _ parts: [Substring]) -> Bool {
        template.count == parts.count && zip(template, parts).allSatisfy(segment)
    }
}
