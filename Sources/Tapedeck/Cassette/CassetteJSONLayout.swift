import Foundation

/// Lays out a cassette's JSON for people reading diffs: two-space indentation, one member
/// per line, and short arrays of scalars (header pairs such as `["Accept", "*/*"]`) on one line.
///
/// Members are written in the order given: the codec writes the envelope's keys sorted and
/// keeps recorded JSON bodies in their received order. `/` is never escaped; non-ASCII is
/// written as UTF-8 (``JSONWriter`` does the writing). The output ends with a newline.
enum CassetteJSONLayout {
    /// Arrays of scalars at most this long (compact) stay on one line.
    static let inlineWidth = 80

    /// The layout: two spaces, short arrays of scalars on one line.
    static let layout = JSONWriter.Layout(inlineScalarArrays: inlineWidth)

    /// What `stream` wrote, ending with a newline.
    static func finish(_ stream: JSONWriter.Stream) -> Data {
        stream.withBytes { bytes in
            var data = Data(capacity: bytes.count + 1)
            data.append(bytes)
            data.append(UInt8(ascii: "\n"))
            return data
        }
    }
}
