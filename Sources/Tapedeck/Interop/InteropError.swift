import Foundation

/// Why a cassette in another format (vcrpy YAML, HAR) could not be read or written.
///
/// Every message names the file, the place inside it and what to do:
/// `rec.har: log.entries[3].response.content.text: not valid base64 ("%%%")`.
public enum InteropError: Error, LocalizedError, Sendable, Equatable {
    /// The document parsed, but a field has the wrong type, is missing or has a bad value.
    case malformed(file: String, path: String, problem: String)
    /// The document is not well-formed YAML or JSON.
    case syntax(file: String, line: Int, column: Int, problem: String)
    /// The file name's extension maps to no known format.
    case unknownFormat(file: String)
    /// The file could not be read or written.
    case io(file: String, reason: String)
    /// The conversion is impossible as asked (e.g. converting a file to itself).
    case unsupported(file: String, reason: String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case let .malformed(file, path, problem):
            "\(file): \(path): \(problem)"
        case let .syntax(file, line, column, problem):
            "\(file):\(line):\(column): \(problem)"
        case let .unknownFormat(file):
            "\(file): unknown cassette format; use .cassette.json or .json (Tapedeck), "
                + ".yaml or .yml (vcrpy), or .har (HAR 1.2)"
        case let .io(file, reason):
            "\(file): \(reason)"
        case let .unsupported(file, reason):
            "\(file): \(reason)"
        }
    }
}

/// Something a target format cannot hold, reported when a cassette is written in it.
///
/// The cassette is still written; the warning says what a reader of that file will not see.
public struct ConversionWarning: Sendable, Hashable, CustomStringConvertible {
    /// The 0-based interaction index the loss concerns, or nil for the whole cassette.
    public var interaction: Int?
    /// The field, e.g. `request.body` or `recordedAt`.
    public var field: String
    /// What is lost and where it went instead, if anywhere.
    public var message: String

    /// Creates a warning.
    public init(interaction: Int? = nil, field: String, message: String) {
        self.interaction = interaction
        self.field = field
        self.message = message
    }

    /// `interactions[2].request.body: …` or `recordedAt: …`.
    public var description: String {
        let place = interaction.map { "interactions[\($0)].\(field)" } ?? field
        return "\(place): \(message)"
    }
}
