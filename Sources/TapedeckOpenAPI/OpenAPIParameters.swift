import Foundation
import OpenAPIKit
import Tapedeck

/// A documented parameter with the place in the document it was read from.
struct OpenAPIParameters {
    struct Problem {
        var name: String
        var location: String
        var message: String
    }

    let parameter: OpenAPI.Parameter
    let location: String

    /// The operation's parameters, then the path item's that the operation does not override.
    static func resolve(route: OpenAPIRoute, operation: OpenAPI.Operation, pathLocation: String,
                        operationLocation: String, components: OpenAPI.Components) -> [OpenAPIParameters] {
        func read(_ list: OpenAPI.Parameter.Array, at base: String) -> [OpenAPIParameters] {
            list.enumerated().compactMap { offset, either in
                guard let parameter = components[either] else { return nil }
                let location: String
                if case .a(let reference) = either { location = reference.absoluteString } else { location = base + "/parameters/\(offset)" }
                return OpenAPIParameters(parameter: parameter, location: location)
            }
        }
        let own = read(operation.parameters, at: operationLocation)
        let shared = read(route.item.parameters, at: pathLocation).filter { candidate in
            !own.contains { $0.parameter.name == candidate.parameter.name && $0.parameter.location == candidate.parameter.location }
        }
        return own + shared
    }

    func check(request: HTTPRequest, pathValues: [String: String], validator: SchemaValidator) -> [Problem] {
        let name = parameter.name
        let place: String
        let raw: String?
        // Every value of a query item: `?ids=1&ids=2` is an exploded array (form style's default).
        var queryValues: [String] = []
        switch parameter.location {
        case .path:
            place = "path"
            raw = pathValues[name]
        case .query:
            place = "query"
            queryValues = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .filter { $0.name == name }.map { $0.value ?? "" } ?? []
            raw = queryValues.first
        case .header:
            place = "header"
            raw = request.headers[name]
        case .cookie:
            place = "cookie"
            raw = Self.cookie(name, in: request.headers)
        case .querystring:
            return []
        }
        let label = "\(place) \(name)"
        guard let raw else {
            return parameter.required
                ? [Problem(name: label, location: location + "/required", message: "required \(place) parameter \"\(name)\" is missing")]
                : []
        }
        guard case .a(let context) = parameter.schemaOrContent,
              let schema = validator.components[context.schema] else { return [] }
        let schemaLocation: String
        if case .a(let reference) = context.schema { schemaLocation = reference.absoluteString } else { schemaLocation = location + "/schema" }
        let value: JSONValue
        let resolved = (try? validator.components.lookup(schema)) ?? schema
        if case .array(_, let array) = resolved.value, context.explode, !queryValues.isEmpty {
            value = .array(queryValues.map { item in array.items.map { Self.typed(item, for: $0, components: validator.components) } ?? .string(item) })
        } else {
            value = Self.typed(raw, for: schema, components: validator.components)
        }
        return validator.validate(value, against: schema, at: schemaLocation).map {
            Problem(name: label, location: $0.schemaLocation, message: $0.message)
        }
    }

    /// The value of cookie `name` in the request's `Cookie` headers (`a=1; b=2`).
    private static func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        for field in headers where field.name.lowercased() == "cookie" {
            for pair in field.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.first?.trimmingCharacters(in: .whitespaces) == name {
                    return parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
                }
            }
        }
        return nil
    }

    /// A parameter's or header's text as the JSON value its schema expects, so `abc` for an
    /// integer is found; an array is its comma-separated items (OpenAPI's `simple` and `form`
    /// styles), each typed by the item schema.
    static func typed(_ raw: String, for schema: JSONSchema, components: OpenAPI.Components) -> JSONValue {
        let resolved = (try? components.lookup(schema)) ?? schema
        switch resolved.value {
        case .array(_, let array):
            let items = raw.isEmpty ? [] : raw.split(separator: ",", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            return .array(items.map { item in array.items.map { typed(item, for: $0, components: components) } ?? .string(item) })
        case .integer, .number:
            if case .number(let literal)? = try? JSONParser.parse(raw) { return .number(literal) }
            return .string(raw)
        case .boolean:
            return raw == "true" ? .bool(true) : raw == "false" ? .bool(false) : .string(raw)
        default:
            return .string(raw)
        }
    }
}
