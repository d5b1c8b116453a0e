import Foundation

/// The on-disk cassette formats Tapedeck reads and writes, chosen by file extension.
///
/// `.yaml` files are read as vcrpy or cassetter YAML by their content; writing picks vcrpy's
/// dialect unless the name ends in `.cassetter.yaml` (or `tapedeck convert --format cassetter`).
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
    /// cassetter's YAML (`version: 1`, typed bodies; `.cassetter.yaml`, or any `.yaml` it wrote).
    case cassetter

    /// The format a file name's extension selects, or nil when none does.
    public init?(for url: URL) {
        let name = url.lastPathComponent.lowercased()
        if name.hasSuffix(".cassetter.yaml") || name.hasSuffix(".cassetter.yml") {
            self = .cassetter
            return
        }
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

    /// The format `--format NAME` names: `native` (or `tapedeck`), `vcr` (or `vcrpy`), `har`, `cassetter`.
    public init?(name: String) {
        switch name.lowercased() {
        case "native", "tapedeck", "json": self = .native
        case "vcr", "vcrpy", "vcryaml", "yaml": self = .vcrYAML
        case "har": self = .har
        case "cassetter": self = .cassetter
        default: return nil
        }
    }

    /// A short name for messages: "Tapedeck JSON", "vcrpy YAML", "HAR 1.2", "cassetter YAML".
    public var description: String {
        switch self {
        case .native: "Tapedeck JSON"
        case .vcrYAML: "vcrpy YAML"
        case .har: "HAR 1.2"
        case .cassetter: "cassetter YAML"
        }
    }
}
