import Foundation

/// Lays out a cassette's JSON for people reading diffs: two-space indentation, one member
/// per line, and short arrays of scalars (header pairs such as `["Accept", "*/*"]`) on one line.
///
/// Members are written in the order given: the codec builds the envelope with sorted keys
/// and keeps recorded JSON bodies in their received order. `/` is never escaped; non-ASCII is
/// written as UTF-8 (``JSONWriter`` does the writing). The output ends with a newline.
enum CassetteJSONLayout {
    /// Arrays of scalars at most this long (compact) stay on one line.
    static let inlineWidth = 80

    static func write(_ value: JSONValue) -> Data {
        var output = JSONWriter.writeBytes(value, options: .pretty, layout: JSONWriter.Layout(inlineScalarArrays: inlineWidth))
        output.append(UInt8(ascii: "\n"))
        return Data(output)
    }
}
