import Foundation

/// Why a cassette could not be read, written, recorded into or served from.
///
/// Every message names the file, the place inside it (a JSON Pointer such as
/// `/interactions/3/response/status`) and what to do next, worded by the ``FixWording``
/// of the session (``LibraryFixWording`` unless a front-end passes its own). `description` is the same text, so a test that throws it shows the
/// whole message (`Caught error: no recorded interaction matches …`), not an enum dump.
public enum CassetteError: Error, LocalizedError, Sendable, CustomStringConvertible {
    /// The file exists but could not be read.
    case unreadable(path: String, reason: String)
    /// Replay-only mode was asked for and the cassette does not exist.
    case missing(path: String, context: any FixWording)
    /// The file is not valid JSON; `pointer` is where the parser was.
    case malformedJSON(path: String, line: Int, column: Int, pointer: String, reason: String)
    /// A field has the wrong type or an invalid value.
    case invalidField(path: String, pointer: String, problem: String)
    /// The file declares a format version this build does not know.
    case unsupportedVersion(path: String, version: Int)
    /// Writing the file failed.
    case writeFailed(path: String, reason: String)
    /// The secret lint refused to save the cassette.
    case secretsFound(path: String, findings: [SecretLint.Finding], context: any FixWording)
    /// No recorded interaction matches a request.
    case noMatch(MismatchReport)
    /// A record mode name (from an option or `TAPEDECK_RECORD_MODE`) is not one of the four.
    case invalidRecordMode(value: String, source: String)
    /// A part of a matching spec (``Matcher/init(spec:)``) is not understood.
    case invalidMatchSpec(spec: String, part: String)
    /// The matching interaction recorded a transport failure (``TransportFailure``): replay
    /// fails the same way. ``ReplayTransport/send(_:)`` throws the ``HTTPError`` itself.
    case recordedFailure(HTTPError)
    /// A maximum age or expiry policy is not valid, or the policy is `fail` and the cassette
    /// holds expired interactions (``CassetteConfiguration/open(live:)``).
    case expiry(ExpiryError)

    /// The whole message: the bad value, where it came from, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read cassette \(path): \(reason)"
        case .missing(let path, let context):
            let shown = DisplayPath.relative(path)
            return "cassette \(shown) does not exist and the record mode is 'none' (replay only); "
                + context.lines(for: .recordMissing(path: shown)).joined(separator: "; ")
        case .malformedJSON(let path, let line, let column, let pointer, let reason):
            return "\(path):\(line):\(column): cassette is not valid JSON at \(pointer.isEmpty ? "/" : pointer): \(reason); "
                + "fix the file by hand, or move it aside and record it again (a recording never writes over a cassette it cannot read, "
                + "in any record mode)"
        case .invalidField(let path, let pointer, let problem):
            return "\(path): \(pointer.isEmpty ? "/" : pointer): \(problem)"
        case .unsupportedVersion(let path, let version):
            return "\(path): /version: cassette format version \(version) is not supported "
                + "(this Tapedeck reads version \(Cassette.currentVersion)); upgrade Tapedeck or re-record the cassette"
        case .writeFailed(let path, let reason):
            return "cannot write cassette \(path): \(reason); check that the directory exists and is writable"
        case .secretsFound(let path, let findings, let context):
            let lines = findings.prefix(10).map { "  - \($0.description)" }
            let more = findings.count > 10 ? ["  … and \(findings.count - 10) more"] : []
            let fixes = context.lines(for: .redact(findings)).map { "  - " + $0 }
            return (["refusing to save \(DisplayPath.relative(path)): it still holds \(findings.count) secret\(findings.count == 1 ? "" : "s"):"]
                + lines + more + ["", "fix:"] + fixes).joined(separator: "\n")
        case .noMatch(let report):
            return report.description
        case .invalidRecordMode(let value, let source):
            return "record mode '\(value)' from \(source) is not valid; use one of: "
                + RecordMode.allCases.map(\.rawValue).joined(separator: ", ")
        case .invalidMatchSpec(let spec, let part):
            return "'\(part)' in the matching spec '\(spec)' is not understood; method and URL are always compared, "
                + "add any of: body, body:raw, body:form, header:NAME, ignore-query:NAME (e.g. body,header:Accept,ignore-query:ts)"
        case .recordedFailure(let error):
            return (error.errorDescription ?? "\(error)") + " (replayed from the cassette, where this failure was recorded)"
        case .expiry(let error):
            return error.errorDescription
        }
    }

    /// The same text as ``errorDescription``.
    public var description: String { errorDescription ?? "cassette error" }
}

extension CassetteError: TransportPassthroughError {}
