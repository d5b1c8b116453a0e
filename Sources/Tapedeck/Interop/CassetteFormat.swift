import Foundation

/// The on-disk cassette formats Tapedeck reads and writes, chosen by file extension.
///
/// ```swift
/// CassetteFormat(for: URL(fileURLWithPath: "api.har"))           // .har
/// CassetteFormat(for: URL(fileURLWithPath: "api.cassette.json")) // .native
/// ```
public enum CassetteFormat: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Tapedeck's own JSON (`.cassette.json`, `.json`).
    case native
    /// vcrpy's YAML cassettes, version 1 (`.yaml`, `.yml`).
    case vcrYAML
    /// HAR 1.2, as browsers and mitmproxy export it (`.har`).
    case har

    /// The format a file name's extension selects, or nil when none does.
    public init?(for url: URL) {
        switch url.pathExtension.lowercased() {
        case "json": self = .native
        case "yaml", "yml": self = .vcrYAML
        case "har": self = .har
        default: return nil
        }
    }

    /// The format for `url`, or ``InteropError/unknownFormat(file:)``.
    public static func detect(_ url: URL) throws(InteropError) -> CassetteFormat {
        guard let format = CassetteFormat(for: url) else { throw .unknownFormat(file: url.lastPathComponent) }
        return format
    }

    /// A short name for messages: "Tapedeck JSON", "vcrpy YAML", "HAR 1.2".
    public var description: String {
        switch self {
        case .native: "Tapedeck JSON"
        case .vcrYAML: "vcrpy YAML"
        case .har: "HAR 1.2"
        }
    }
}
