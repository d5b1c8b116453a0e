/// `{{name}}` interpolation: checked when a line is parsed, expanded when it runs (so a value
/// captured on one line can be used on the next).
///
/// Names are letters, digits, `_`, `-` and `.`; `{{env.HOME}}` reads the environment.
public enum Template {
    /// One `{{…}}` found in a text: the name and its character offset.
    struct Reference {
        var name: String
        var offset: Int
        var range: Range<String.Index>
    }

    /// Throws when a `{{` is never closed or names something that is not a variable name.
    static func validate(_ text: String, at location: SourceLocation) throws(ParseError) {
        _ = try references(in: text, at: location)
    }

    /// The variable names used in `text`, in order.
    public static func names(in text: String) -> [String] {
        (try? references(in: text, at: SourceLocation(file: "", line: 0, column: 0)))?.map(\.name) ?? []
    }

    /// Replaces every `{{name}}` with `lookup(name)`; an unknown name throws with its location
    /// and the closest known name.
    static func expand(
        _ text: String, at location: SourceLocation, known: @autoclosure () -> [String],
        lookup: (String) -> String?
    ) throws(ShellError) -> String {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return text }
        let found: [Reference]
        do {
            found = try references(in: text, at: location)
        } catch {
            throw .parse(error)
        }
        var result = ""
        var cursor = text.startIndex
        for reference in found {
            result += text[cursor..<reference.range.lowerBound]
            guard let value = lookup(reference.name) else {
                let spot = location.advanced(by: reference.offset)
                let suggestion = reference.name.hasPrefix("env.")
                    ? nil : Suggestion.closest(to: reference.name, in: known())
                throw .undefinedVariable(reference.name, suggestion: suggestion, at: spot)
            }
            result += value
            cursor = reference.range.upperBound
        }
        result += text[cursor...]
        return result
    }

    private static func references(in text: String, at location: SourceLocation) throws(ParseError) -> [Reference] {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var found: [Reference] = []
        var searchStart = text.startIndex
        while let open = text.range(of: "{{", range: searchStart..<text.endIndex) {
            let offset = text.distance(from: text.startIndex, to: open.lowerBound)
            guard let close = text.range(of: "}}", range: open.upperBound..<text.endIndex) else {
                throw ParseError(.unclosedInterpolation, at: location.advanced(by: offset))
            }
            let name = text[open.upperBound..<close.lowerBound].trimmedSpaces
            guard isValidName(name) else {
                throw ParseError(.invalidVariableName(name), at: location.advanced(by: offset))
            }
            found.append(Reference(name: name, offset: offset, range: open.lowerBound..<close.upperBound))
            searchStart = close.upperBound
        }
        return found
    }

    /// Whether `name` can be a variable name (`env.X` included).
    public static func isValidName(_ name: String) -> Bool {
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII ? (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)) : scalar.properties.isAlphabetic
        }
        guard let first = name.unicodeScalars.first, first == "_" || isLetter(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            isLetter($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "-" || $0 == "."
        }
    }
}
