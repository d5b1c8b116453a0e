import Foundation
import OpenAPIKit
import Tapedeck

/// Checks every interaction of a cassette against an OpenAPI document: the path and method, the
/// status, the parameters, and JSON request and response bodies against their schemas.
///
/// ```swift
/// let spec = try OpenAPISpec.load(URL(fileURLWithPath: "spec.yaml"))
/// let findings = CassetteOpenAPICheck(spec: spec).findings(in: cassette)
/// ```
package struct CassetteOpenAPICheck: Sendable {
    private let spec: OpenAPISpec
    private let routes: [OpenAPIRoute]
    private let basePaths: [String]

    /// Prepares the document's paths for matching.
    package init(spec: OpenAPISpec) {
        self.spec = spec
        routes = spec.document.paths.compactMap { path, item in
            spec.document.components[item].map { OpenAPIRoute(path: path.rawValue, item: $0) }
        }.sorted { $0.literalCount > $1.literalCount }
        // Server URLs with a path (`https://api.example.com/v1`) prefix every documented path.
        // Compared with a request path as sent, escapes and all.
        basePaths = spec.basePaths(percentEncoded: true)
    }

    /// Every finding, in interaction order.
    package func findings(in cassette: Cassette) -> [OpenAPIFinding] {
        // Checked as redaction would write the cassette (a browser's HAR holds credentials a
        // finding would quote): a redacted value is not checked, and none is shown.
        Redactor.standard.redact(cassette).interactions.enumerated().flatMap { index, interaction in findings(for: interaction, at: index) }
    }

    /// The findings for one interaction; `index` names it.
    package func findings(for interaction: Interaction, at index: Int) -> [OpenAPIFinding] {
        findings(for: interaction, at: index, alsoUnder: nil)
    }

    /// The findings for one interaction whose path may also start with `prefix` (the path of the
    /// base URL a session sends to) before the document's paths.
    func findings(for interaction: Interaction, at index: Int, alsoUnder prefix: String?) -> [OpenAPIFinding] {
        // A recorded transport failure has no response to hold to the document.
        guard interaction.failure == nil else { return [] }
        let request = interaction.request
        let method = request.method.rawValue.uppercased()
        let url = request.urlText
        func finding(_ kind: OpenAPIFinding.Kind, _ pointer: String, _ location: String, _ message: String) -> OpenAPIFinding {
            OpenAPIFinding(index: index, method: method, url: url, kind: kind, pointer: pointer,
                           schemaLocation: location, message: message)
        }
        // As sent: split on its slashes before a segment is decoded (`a%2Fb` is one value).
        let sent = request.url.path(percentEncoded: true)
        let path = sent.isEmpty ? "/" : sent
        guard let (route, pathValues) = match(path, alsoUnder: prefix) else {
            return [finding(.unknownPath, "", "#/paths", "no path of \(spec.path) matches \(path)")]
        }
        let pathLocation = SchemaLocation.append("#/paths", route.path)
        guard let operation = route.item.endpoints.first(where: { $0.method.rawValue.uppercased() == method })?.operation else {
            let documented = route.item.endpoints.map { $0.method.rawValue.uppercased() }.joined(separator: ", ")
            return [finding(.unknownMethod, "", pathLocation,
                            "\(route.path) documents \(documented.isEmpty ? "no methods" : documented), not \(method)")]
        }
        let operationLocation = pathLocation + "/" + method.lowercased()
        let validator = SchemaValidator(components: spec.document.components)
        var results: [OpenAPIFinding] = []

        // Parameters: the operation's, then the path item's that the operation does not override.
        let parameters = OpenAPIParameters.resolve(route: route, operation: operation, pathLocation: pathLocation,
                                                   operationLocation: operationLocation, components: spec.document.components)
        for parameter in parameters {
            for problem in parameter.check(request: request, pathValues: pathValues, validator: validator) {
                results.append(finding(.parameter, problem.name, problem.location, problem.message))
            }
        }

        // The request body.
        if let requestBody = operation.requestBody {
            let location = requestBody.reference.map { $0.absoluteString } ?? operationLocation + "/requestBody"
            if spec.document.components[requestBody] == nil {
                results.append(finding(.brokenReference, "", location, "the request body refers to \(location), which the document's components do not define"))
            }
            if let body = spec.document.components[requestBody] {
                let contentType = request.headers["Content-Type"]
                if request.body?.isEmpty ?? true {
                    if body.required { results.append(finding(.requestBody, "", location, "the request has no body, but the operation requires one")) }
                } else {
                    for violation in bodyViolations(request.body ?? Data(), contentType: contentType, content: body.content,
                                                     location: location, validator: validator, direction: .request) {
                        results.append(finding(.requestBody, violation.pointer, violation.schemaLocation, violation.message))
                    }
                }
            }
        }

        // The status and the response body.
        let status = interaction.response.status
        guard let (code, response) = responseFor(status, in: operation.responses) else {
            let documented = operation.responses.keys.map(\.rawValue).joined(separator: ", ")
            results.append(finding(.undocumentedStatus, "", operationLocation + "/responses",
                                   "\(status) is not documented (documented: \(documented.isEmpty ? "none" : documented))"))
            return results
        }
        let responseLocation = response.reference.map { $0.absoluteString }
            ?? SchemaLocation.append(operationLocation + "/responses", code.rawValue)
        guard let resolved = spec.document.components[response] else {
            results.append(finding(.brokenReference, "", responseLocation,
                                   "the response for \(code.rawValue) refers to \(responseLocation), which the document's components do not define"))
            return results
        }
        for problem in headerProblems(interaction.response.headers, documented: resolved.headers,
                                      location: responseLocation + "/headers", validator: validator) {
            results.append(finding(.responseHeader, problem.name, problem.location, problem.message))
        }
        if !interaction.response.body.isEmpty {
            for violation in bodyViolations(interaction.response.body, contentType: interaction.response.headers["Content-Type"],
                                             content: resolved.content, location: responseLocation, validator: validator, direction: .response) {
                results.append(finding(.responseBody, violation.pointer, violation.schemaLocation, violation.message))
            }
        }
        return results
    }

    private func match(_ path: String, alsoUnder prefix: String?) -> (OpenAPIRoute, [String: String])? {
        var candidates = [path]
        let extra = prefix.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }.flatMap { $0.isEmpty ? nil : $0 }
        for base in basePaths + (extra.map { [$0] } ?? []) where path.hasPrefix(base + "/") || path == base {
            let rest = String(path.dropFirst(base.count))
            candidates.append(rest.isEmpty ? "/" : rest)
        }
        for candidate in candidates {
            for route in routes {
                if let values = route.match(candidate) { return (route, values) }
            }
        }
        return nil
    }

    /// Documented response headers that are missing (when required) or break their schema;
    /// `Content-Type` is left to the media types, as OpenAPI says.
    private func headerProblems(_ headers: HTTPHeaders, documented: OpenAPI.Header.Map?, location: String,
                                validator: SchemaValidator) -> [OpenAPIParameters.Problem] {
        guard let documented else { return [] }
        var problems: [OpenAPIParameters.Problem] = []
        for (name, either) in documented where name.lowercased() != "content-type" {
            guard let header = spec.document.components[either] else { continue }
            let headerLocation = either.reference.map { $0.absoluteString } ?? SchemaLocation.append(location, name)
            guard let raw = headers[name] else {
                if header.required {
                    problems.append(.init(name: "header \(name)", location: headerLocation + "/required",
                                          message: "required response header \"\(name)\" is missing"))
                }
                continue
            }
            guard case .a(let context) = header.schemaOrContent, let schema = validator.components[context.schema] else { continue }
            let schemaLocation = context.schema.reference.map { $0.absoluteString } ?? headerLocation + "/schema"
            let value = OpenAPIParameters.typed(raw, for: schema, components: validator.components)
            for violation in validator.validate(value, against: schema, at: schemaLocation) {
                problems.append(.init(name: "header \(name)", location: violation.schemaLocation, message: violation.message))
            }
        }
        return problems
    }

    private func responseFor(_ status: Int, in responses: OpenAPI.Response.Map)
        -> (OpenAPI.Response.StatusCode, Either<OpenAPI.Reference<OpenAPI.Response>, OpenAPI.Response>)? {
        if let exact = responses.first(where: { $0.key.value == .status(code: status) }) { return (exact.key, exact.value) }
        if let range = responses.first(where: { key, _ in
            if case .range(let range) = key.value { return range.rawValue.first == String(status).first }
            return false
        }) { return (range.key, range.value) }
        if let fallback = responses.first(where: { $0.key.value == .default }) { return (fallback.key, fallback.value) }
        return nil
    }

    /// Decodes a JSON body and checks it against the schema of its media type; other media types are not checked.
    private func bodyViolations(_ body: Data, contentType: String?, content: OpenAPI.Content.Map, location: String,
                                validator: SchemaValidator, direction: SchemaValidator.Direction) -> [SchemaValidator.Violation] {
        let essence = contentType.map(MediaType.essence) ?? "application/json"
        guard MediaType.isJSON(essence) else {
            // Only JSON is held to a schema; another media type must still be one documented.
            let family = essence.split(separator: "/").first.map { "\($0)/*" } ?? "*/*"
            let documented = content.keys.map { $0.rawValue.lowercased() }
            guard !content.isEmpty, !documented.contains(where: { $0 == essence || $0 == family || $0 == "*/*" }) else { return [] }
            return [.init(pointer: "", schemaLocation: location + "/content",
                          message: "media type \(essence) is not documented (documented: \(documented.joined(separator: ", ")))")]
        }
        let entry = content.first { $0.key.rawValue.lowercased() == essence }
            ?? content.first { MediaType.isJSON($0.key.rawValue) }
            ?? content.first { $0.key.rawValue == "*/*" || $0.key.rawValue == "application/*" }
        guard let entry else {
            if content.isEmpty { return [] }
            let documented = content.keys.map(\.rawValue).joined(separator: ", ")
            return [.init(pointer: "", schemaLocation: location + "/content",
                          message: "media type \(essence) is not documented (documented: \(documented))")]
        }
        guard let schema = spec.document.components[entry.value]?.schema else { return [] }
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch {
            return [.init(pointer: "", schemaLocation: location, message: "the body is not valid JSON: \(error.localizedDescription)")]
        }
        let schemaLocation = (entry.value.reference.map { $0.absoluteString }
            ?? SchemaLocation.append(location + "/content", entry.key.rawValue)) + "/schema"
        return validator.validate(value, against: schema, at: schemaLocation, direction: direction)
    }
}

extension Either {
    /// The reference, when this is one.
    fileprivate var reference: A? {
        if case .a(let reference) = self { return reference }
        return nil
    }
}
