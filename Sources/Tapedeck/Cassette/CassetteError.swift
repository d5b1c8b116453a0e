import Foundation

/// Why a cassette could not be read, written, recorded into or served from.
///
/// Every message names the file, the place inside it (a JSON Pointer such as
/// `/interactions/3/response/status`) and what to do next.
public enum CassetteError: Error, LocalizedError, Sendable {
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// Replay-only mode was asked for and the cassette does not exist.
    case missing(path: String)
    /// The file is not valid JSON; `pointer` is where the parser was.
    case malformedJSON(path: String, line: Int, column: Int, pointer: String, reason: String)
    /// A field has the wrong type or an invalid value.
    case invalidField(path: String, pointer: String, problem: String)
    /// The file declares a format version this build does not know.
    case unsupportedVersion(path: String, version: Int)
    /// Writing the file failed.
    case writeFailed(path: String, reason: String)
    /// The secret lint refused to save the cassette.
    case secretsFound(path: String, findings: [SecretLint.Finding])
    /// No recorded interaction matches a request.
    case noMatch(MismatchReport)
    /// A record mode name (from an option or `TAPEDECK_RECORD_MODE`) is not one of the four.
    case invalidRecordMode(value: String, source: String)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read cassette \(path): \(reason)"
        case .missing(let path):
            return "cassette \(path) does not exist and the record mode is 'none' (replay only); "
                + "record it first: TAPEDECK_RECORD_MODE=once swift test, or `tapedeck run --record \(path) --mode once`"
        case .malformedJSON(let path, let line, let column, let pointer, let reason):
            return "\(path):\(line):\(column): cassette is not valid JSON at \(pointer.isEmpty ? "/" : pointer): \(reason); "
                + "fix the file by hand or re-record it (TAPEDECK_RECORD_MODE=all)"
        case .invalidField(let path, let pointer, let problem):
            return "\(path): \(pointer.isEmpty ? "/" : pointer): \(problem)"
        case .unsupportedVersion(let path, let version):
            return "\(path): /version: cassette format version \(version) is not supported "
                + "(this Tapedeck reads version \(Cassette.currentVersion)); upgrade Tapedeck or re-record the cassette"
        case .writeFailed(let path, let reason):
            return "cannot write cassette \(path): \(reason); check that the directory exists and is writable"
        case .secretsFound(let path, let findings):
            let lines = findings.prefix(10).map { "  - \($0.description)" }.joined(separator: "\n")
            let more = findings.count > 10 ? "\n  … and \(findings.count - 10) more" : ""
            return "refusing to save \(path): it still holds \(findings.count) secret\(findings.count == 1 ? "" : "s"):\n"
                + lines + more + "\nredact them (Redactor headers, queryItems or jsonPaths) or, for a false alarm, "
                + "turn the lint off for this cassette (RecordingTransport.Options.lint = false)"
        case .noMatch(let report):
            return report.description
        case .invalidRecordMode(let value, let source):
            return "record mode '\(value)' from \(source) is not valid; use one of: "
                + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
        }
    }
}
