import Foundation
import OpenAPIKit
import Tapedeck

/// Checks a ``JSONValue`` against an OpenAPIKit ``JSONSchema``: types, `nullable`, `enum`,
/// `required`, `properties`, `additionalProperties`, `items`, bounds (`minimum`, `maxLength`,
/// `pattern`, `minItems`, `uniqueItems`…), integer and string formats (``StringFormat``) and the
/// combinators (`allOf`, `anyOf`, `oneOf`, `not`), following `$ref`s into the components.
struct SchemaValidator {
    /// One mismatch: the pointer in the value, the schema's location in the document, what is wrong.
    struct Violation: Hashable {
        var pointer: String
        var schemaLocation: String
        var message: String
    }

    /// Which way a body goes: `readOnly` members may be left out of a request, `writeOnly`
    /// ones out of a response, though `required`.
    enum Direction {
        case request, response
    }

    let components: OpenAPI.Components
    /// How deep `$ref`s may nest before a recursive schema is taken as satisfied.
    private let maximumDepth = 64
    /// How many schemas a value is checked against at most, beside a few for each of its
    /// nodes: combinators that nest (`anyOf: [$ref B, $ref B]` in each of 30 schemas) would
    /// otherwise check one value 2^30 times.
    static let maximumSteps = 200_000

    /// One validation's state, passed down the checks.
    private struct Run {
        /// The way the value goes.
        let direction: Direction?
        /// The checks allowed, and those made.
        let limit: Int
        var steps = 0
    }

    init(components: OpenAPI.Components) {
        self.components = components
    }

    func validate(_ value: JSONValue, against schema: JSONSchema, at location: String, direction: Direction? = nil) -> [Violation] {
        var violations: [Violation] = []
        var run = Run(direction: direction, limit: Self.maximumSteps + 20 * Self.nodes(in: value))
        check(value, schema, pointer: "", location: location, depth: 0, into: &violations, run: &run)
        if run.steps > run.limit {
            // What was found before the limit may be the limit's doing (a combinator cut short fails).
            return [Violation(pointer: "", schemaLocation: location,
                              message: "not checked: the schema's allOf, anyOf and oneOf nest so that checking this value takes over "
                                + "\(run.limit) steps; give the nested schemas fewer branches that refer to the same schema")]
        }
        return violations
    }

    /// How many values `value` is made of, itself included.
    private static func nodes(in value: JSONValue) -> Int {
        switch value {
        case .array(let elements): elements.reduce(1) { $0 + nodes(in: $1) }
        case .object(let members): members.reduce(1) { $0 + nodes(in: $1.value) }
        default: 1
        }
    }

    private func check(_ value: JSONValue, _ schema: JSONSchema, pointer: String, location: String,
                       depth: Int, into violations: inout [Violation], run: inout Run) {
        guard depth < maximumDepth else { return }
        run.steps += 1
        guard run.steps <= run.limit else { return }
        // A value redaction replaced is not known, so it breaks no rule.
        if case .string(let text) = value, Redactor.isPlaceholder(text) { return }
        func fail(_ message: String, at schemaLocation: String = location) {
            violations.append(Violation(pointer: pointer, schemaLocation: schemaLocation, message: message))
        }
        if case .reference(let reference, _) = schema.value {
            guard let target = components[reference] else {
                if let cycle = referenceCycle(from: reference) {
                    fail("the schema's $ref chain is a cycle (" + cycle.joined(separator: " → ")
                        + "), so it never reaches a schema; give one of them a schema of its own instead of a $ref")
                } else {
                    fail("the schema refers to \(reference.absoluteString), which the document's components do not define")
                }
                return
            }
            check(value, target, pointer: pointer, location: reference.absoluteString, depth: depth + 1, into: &violations, run: &run)
            return
        }
        if case .null = value, schema.nullable { return }
        if let allowed = schema.allowedValues, !allowed.contains(where: { Self.matches(value, $0.value) }) {
            let list = allowed.map { Self.show(enumValue: $0.value) }.joined(separator: ", ")
            fail("\(Self.show(value)) is not one of the allowed values [\(list)]", at: location + "/enum")
            return
        }
        switch schema.value {
        case .null:
            if case .null = value {} else { fail(Self.expected("null", value)) }
        case .boolean:
            if case .bool = value {} else { fail(Self.expected("boolean", value)) }
        case .number(_, let numeric):
            guard case .number(let literal) = value else { return fail(Self.expected("number", value)) }
            if let number = Double(literal) {
                Bounds.check(number, literal, minimum: numeric.minimum.map { ($0.value, $0.exclusive) },
                             maximum: numeric.maximum.map { ($0.value, $0.exclusive) }, multipleOf: numeric.multipleOf,
                             at: location, fail: fail)
            }
        case .integer(let core, let integer):
            guard case .number(let literal) = value else { return fail(Self.expected("integer", value)) }
            guard let number = Double(literal), number.rounded() == number, number.isFinite else {
                return fail("expected integer, found \(literal)")
            }
            if core.format == .int32, !(Double(Int32.min)...Double(Int32.max)).contains(number) {
                fail("\(literal) does not fit format int32", at: location + "/format")
            } else if core.format == .int64, Int64(literal) == nil, Int64(exactly: number) == nil {
                fail("\(literal) does not fit format int64", at: location + "/format")
            }
            Bounds.check(number, literal, minimum: integer.minimum.map { (Double($0.value), $0.exclusive) },
                         maximum: integer.maximum.map { (Double($0.value), $0.exclusive) },
                         multipleOf: integer.multipleOf.map(Double.init), at: location, fail: fail)
        case .string(let core, let string):
            guard case .string(let text) = value else { return fail(Self.expected("string", value)) }
            Bounds.check(text, minLength: string.minLength, maxLength: string.maxLength, pattern: string.pattern,
                         at: location, fail: fail)
            if let format = core.formatString, let problem = StringFormat.problem(text, format: format) {
                fail(problem, at: location + "/format")
            }
        case .object(_, let object):
            guard case .object(let members) = value else { return fail(Self.expected("object", value)) }
            checkObject(members, object, pointer: pointer, location: location, depth: depth, into: &violations, run: &run)
        case .array(_, let array):
            guard case .array(let elements) = value else { return fail(Self.expected("array", value)) }
            Bounds.check(elements, minItems: array.minItems, maxItems: array.maxItems, unique: array.uniqueItems,
                         at: location, fail: fail)
            guard let items = array.items else { return }
            for (offset, element) in elements.enumerated() {
                check(element, items, pointer: pointer + "/\(offset)", location: location + "/items",
                      depth: depth + 1, into: &violations, run: &run)
            }
        case .all(let schemas, _):
            for (offset, part) in schemas.enumerated() {
                check(value, part, pointer: pointer, location: location + "/allOf/\(offset)", depth: depth + 1, into: &violations, run: &run)
            }
        case .any(let schemas, _):
            if !schemas.contains(where: { passes(value, $0, location: location, depth: depth, run: &run) }) {
                fail("\(Self.show(value)) matches none of the \(schemas.count) anyOf schemas", at: location + "/anyOf")
            }
        case .one(let schemas, _):
            let passing = schemas.filter { passes(value, $0, location: location, depth: depth, run: &run) }.count
            if passing != 1 {
                fail("\(Self.show(value)) matches \(passing) of the oneOf schemas, not exactly one", at: location + "/oneOf")
            }
        case .not(let negated, _):
            if passes(value, negated, location: location, depth: depth, run: &run) {
                fail("\(Self.show(value)) matches the schema under not", at: location + "/not")
            }
        case .reference, .fragment:
            break
        }
    }

    private func checkObject(_ members: [(key: String, value: JSONValue)], _ object: JSONSchema.ObjectContext,
                             pointer: String, location: String, depth: Int, into violations: inout [Violation], run: inout Run) {
        var present: [String: JSONValue] = [:]
        for member in members { present[member.key] = member.value }
        for name in object.requiredProperties where present[name] == nil && !leftOutByDirection(object.properties[name], direction: run.direction) {
            violations.append(Violation(pointer: SchemaLocation.append(pointer, name),
                                        schemaLocation: location + "/required",
                                        message: "required member \"\(name)\" is missing"))
        }
        for (name, member) in present.sorted(by: { $0.key < $1.key }) {
            let memberPointer = SchemaLocation.append(pointer, name)
            if let property = object.properties[name] {
                check(member, property, pointer: memberPointer, location: SchemaLocation.append(location, "properties", name),
                      depth: depth + 1, into: &violations, run: &run)
                continue
            }
            switch object.additionalProperties {
            case .a(false):
                violations.append(Violation(pointer: memberPointer, schemaLocation: location + "/additionalProperties",
                                            message: "member \"\(name)\" is not allowed (additionalProperties is false)"))
            case .b(let additional):
                check(member, additional, pointer: memberPointer, location: location + "/additionalProperties",
                      depth: depth + 1, into: &violations, run: &run)
            case .a(true), .none:
                break
            }
        }
    }

    /// Whether a required member with `schema` may be missing the way the value goes: a
    /// `readOnly` one from a request, a `writeOnly` one from a response (OpenAPI 3.0 §4.7.24.3).
    private func leftOutByDirection(_ schema: JSONSchema?, direction: Direction?) -> Bool {
        guard var schema, let direction else { return false }
        // The flag may sit beside a `$ref` (`{$ref: …, readOnly: true}`) or on its target.
        for _ in 0..<maximumDepth {
            if direction == .request ? schema.readOnly : schema.writeOnly { return true }
            guard case .reference(let reference, _) = schema.value, let target = components[reference] else { return false }
            schema = target
        }
        return false
    }

    /// The references of a `$ref` chain that comes back to itself (`#/components/schemas/A`,
    /// `…/B`, `…/A`), or nil when the chain ends (in a schema, or in a name nothing defines).
    private func referenceCycle(from start: JSONReference<JSONSchema>) -> [String]? {
        var seen: [String] = []
        var current = start
        while let name = current.name, let schema = components.schemas[OpenAPI.ComponentKey(rawValue: name) ?? "_"] {
            seen.append(current.absoluteString)
            guard case .reference(let next, _) = schema.value else { return nil }
            if seen.contains(next.absoluteString) { return seen + [next.absoluteString] }
            current = next
        }
        return nil
    }

    private func passes(_ value: JSONValue, _ schema: JSONSchema, location: String, depth: Int, run: inout Run) -> Bool {
        var violations: [Violation] = []
        check(value, schema, pointer: "", location: location, depth: depth + 1, into: &violations, run: &run)
        return violations.isEmpty
    }

    private static func expected(_ type: String, _ value: JSONValue) -> String {
        // `null` names itself: "found null", not "found null null".
        value == .null ? "expected \(type), found null"
            : "expected \(type), found \(value.typeName == "bool" ? "boolean" : value.typeName) \(show(value))"
    }

    /// A short rendering of `value` for messages.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "\(bool)"
        case .number(let literal): literal
        case .string(let string): "\"\(string.count > 40 ? String(string.prefix(40)) + "…" : string)\""
        case .array(let elements): "[\(elements.count) item\(elements.count == 1 ? "" : "s")]"
        case .object(let members): "{\(members.count) member\(members.count == 1 ? "" : "s")}"
        }
    }

    /// Whether `value` equals an `enum` entry as OpenAPIKit decoded it: a string, number,
    /// boolean or null, or an array or object of them.
    private static func matches(_ value: JSONValue, _ allowed: Any) -> Bool {
        switch (value, allowed) {
        case (_, let wrapped as AnyCodable): matches(value, wrapped.value)
        case (.string(let string), let other as String): string == other
        // Before the numbers: Foundation reads a JSON `true` as a number too.
        case (.bool(let bool), let other as Bool): bool == other
        case (.number, is Bool), (.bool, _): false
        case (.number(let literal), let other as Int): Double(literal) == Double(other)
        case (.number(let literal), let other as Double): Double(literal) == other
        case (.null, is NSNull), (.null, is Void): true
        case (.array(let elements), let others as [Any]):
            elements.count == others.count && zip(elements, others).allSatisfy { matches($0, $1) }
        case (.object(let members), let others as [String: Any]):
            members.count == others.count && members.allSatisfy { member in others[member.key].map { matches(member.value, $0) } ?? false }
        default: false
        }
    }

    /// An `enum` entry as JSON writes it: a string quoted, so `"true"` is told from `true`.
    private static func show(enumValue: Any) -> String {
        switch enumValue {
        case let wrapped as AnyCodable: show(enumValue: wrapped.value)
        case let string as String: "\"\(string)\""
        case is NSNull, is Void: "null"
        case let elements as [Any]: "[" + elements.map { show(enumValue: $0) }.joined(separator: ", ") + "]"
        case let members as [String: Any]:
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \(show(enumValue: $0.value))" }.joined(separator: ", ") + "}"
        default: "\(enumValue)"
        }
    }
}
