import Foundation

/// Fixes worded for app code that uses the core directly: the option or type to change.
///
/// ```text
/// fix:
///   - if those query items don't matter, ignore them: set CassetteConfiguration.matcher = Matcher(ignoredQueryItems: ["ts"])
///   - record it: open the cassette with CassetteConfiguration(mode: .new) (or TAPEDECK_RECORD_MODE=new)
/// ```
public struct LibraryFixWording: FixWording, Hashable {
    /// Creates the wording.
    public init() {}

    /// The lines for `fix` (see the type's summary).
    public func lines(for fix: CassetteFix) -> [String] {
        switch fix {
        case .record(_, let mode):
            guard mode != nil else {
                return ["record it: a ReplayTransport never records; open the cassette with "
                    + "CassetteConfiguration(mode: .new) (or TAPEDECK_RECORD_MODE=new)"]
            }
            return ["record it: open the cassette with CassetteConfiguration(mode: .new) (or TAPEDECK_RECORD_MODE=new)"]
        case .recordMissing:
            return ["record it first: open it with CassetteConfiguration(mode: .once) (or TAPEDECK_RECORD_MODE=once)"]
        case .allowRepeats:
            return ["allow reusing the last match: set CassetteConfiguration.allowRepeats = true"]
        case .changeMatcher(let reason, let option, _, _, _):
            return ["\(reason): set CassetteConfiguration.matcher = \(option)"]
        case .serveAtOrigin(_, let sent, _, _):
            return [#"serve the cassette at the origin you send to: set CassetteConfiguration.origin = URL(string: "\#(sent)")"#]
        case .redact(let findings):
            let redactions = SecretLint.Redactions(findings)
            var lines: [String] = []
            if let redactor = redactions.redactorExpression {
                lines.append("redact them: set CassetteConfiguration.redactor = \(redactor)")
            }
            if !redactions.unredactable.isEmpty {
                lines.append("\(redactions.unredactable.joined(separator: ", ")) cannot be redacted by name; "
                    + "rewrite it in CassetteConfiguration.beforeRecord = { interaction in … }")
            }
            lines.append("for a false alarm: set CassetteConfiguration.lint = false")
            return lines
        case .listInteractions:
            return ["ReplayTransport.cassette.interactions lists them"]
        }
    }
}

extension FixWording where Self == LibraryFixWording {
    /// Fixes worded as Swift options (``LibraryFixWording``).
    public static var library: LibraryFixWording { LibraryFixWording() }
}
