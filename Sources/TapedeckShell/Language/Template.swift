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

    /// Every `{{…}}` in `text`, found in one pass: the character offset is counted as the scan
    /// goes (not measured from the start for each one), so checking is linear in the text.
    private static func references(in text: String, at location: SourceLocation) throws(ParseError) -> [Reference] {
        guard text.utf8.contains(UInt8(ascii: "{")) else { return [] }
        var found: [Reference] = []
        var index = text.startIndex
        var offset = 0
        var open: (index: String.Index, offset: Int)?
        var previous: Character?
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if let start = open {
                if character == "}", next < text.endIndex, text[next] == "}" {
                    let nameStart = text.index(start.index, offsetBy: 2)
                    let name = text[nameStart..<index].trimmedSpaces
                    guard isValidName(name) else {
                        throw ParseError(.invalidVariableName(name), at: location.advanced(by: start.offset))
                    }
                    let end = text.index(after: next)
                    found.append(Reference(name: name, offset: start.offset, range: start.index..<end))
                    open = nil
                    previous = nil
                    index = end
                    offset += 2
                    continue
                }
            } else if character == "{", previous == "{" {
                let start = text.index(before: index)
                open = (start, offset - 1)
                previous = nil
                index = next
                offset += 1
                continue
            }
            previous = character
            index = next
            offset += 1
        }
        if let start = open {
            throw ParseError(.unclosedInterpolation, at: location.advanced(by: start.offset))
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
