import Foundation
import Tapedeck

/// The bounds of JSON Schema's numbers, strings and arrays: `minimum`/`maximum` (exclusive or
/// not), `multipleOf`, `minLength`/`maxLength`/`pattern`, `minItems`/`maxItems`/`uniqueItems`.
/// Each broken bound is reported with its keyword's location.
enum Bounds {
    typealias Fail = (_ message: String, _ schemaLocation: String) -> Void

    static func check(_ number: Double, _ literal: String, minimum: (Double, Bool)?, maximum: (Double, Bool)?,
                      multipleOf: Double?, at location: String, fail: Fail) {
        if let (bound, exclusive) = minimum, exclusive ? number <= bound : number < bound {
            fail("\(literal) is less than \(exclusive ? "or equal to " : "")the minimum \(Self.show(bound))",
                 location + (exclusive ? "/exclusiveMinimum" : "/minimum"))
        }
        if let (bound, exclusive) = maximum, exclusive ? number >= bound : number > bound {
            fail("\(literal) is greater than \(exclusive ? "or equal to " : "")the maximum \(Self.show(bound))",
                 location + (exclusive ? "/exclusiveMaximum" : "/maximum"))
        }
        if let multipleOf, multipleOf > 0 {
            let quotient = number / multipleOf
            if abs(quotient - quotient.rounded()) > 1e-9 {
                fail("\(literal) is not a multiple of \(Self.show(multipleOf))", location + "/multipleOf")
            }
        }
    }

    static func check(_ text: String, minLength: Int, maxLength: Int?, pattern: String?, at location: String, fail: Fail) {
        // JSON Schema counts characters as code points.
        let length = text.unicodeScalars.count
        if length < minLength { fail("\(length) characters, fewer than minLength \(minLength)", location + "/minLength") }
        if let maxLength, length > maxLength { fail("\(length) characters, more than maxLength \(maxLength)", location + "/maxLength") }
        if let pattern {
            guard let expression = try? NSRegularExpression(pattern: pattern) else {
                return fail("the schema's pattern \(pattern) is not a regular expression this checker reads", location + "/pattern")
            }
            let range = NSRange(text.startIndex..., in: text)
            if expression.firstMatch(in: text, range: range) == nil {
                fail("\"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\" does not match the pattern \(pattern)", location + "/pattern")
            }
        }
    }

    static func check(_ elements: [JSONValue], minItems: Int, maxItems: Int?, unique: Bool, at location: String, fail: Fail) {
        if elements.count < minItems { fail("\(elements.count) items, fewer than minItems \(minItems)", location + "/minItems") }
        if let maxItems, elements.count > maxItems { fail("\(elements.count) items, more than maxItems \(maxItems)", location + "/maxItems") }
        if unique, let duplicate = firstDuplicate(elements) {
            fail("items \(duplicate.0) and \(duplicate.1) are equal, but uniqueItems is true", location + "/uniqueItems")
        }
    }

    private static func firstDuplicate(_ elements: [JSONValue]) -> (Int, Int)? {
        var seen: [String: Int] = [:]
        for (offset, element) in elements.enumerated() {
            let key: String = JSONWriter.write(element, options: .sortedKeys)
            if let earlier = seen[key] { return (earlier, offset) }
            seen[key] = offset
        }
        return nil
    }

    private static func show(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
