import Foundation

/// What a replay session says when no recorded interaction matches a request: the request,
/// the cassette, the nearest interactions with field-level differences, exact matches that
/// were skipped and why, and the fix.
///
/// ```text
/// no recorded interaction matches GET http://httpbin.local/anything?page=3
/// cassette: Sessions/tour.cassette.json (6 interactions, mode none)
/// matching on: method, URL (query order ignored)
///
/// nearest recorded interactions (recorded → sent):
///   1. #5 GET http://httpbin.local/anything?page=2
///        query page: "2" → "3"
///
/// fix:
///   - record it: record Sessions/tour.cassette.json --mode new, then send the request again
/// ```
///
/// The fixes are data (``suggested``) worded by the session's ``FixWording``: Swift options
/// such as `Matcher(ignoredQueryItems: ["ts"])` in the core; the command line and the testing
/// library word them as commands. Paths inside the working directory are shown relative to it, as typed.
public struct MismatchReport: Sendable, CustomStringConvertible {
    /// A recorded interaction close to the request.
    public struct Candidate: Sendable {
        /// The interaction's index in the cassette.
        public var index: Int
        /// `GET http://…` of the recorded request.
        public var summary: String
        /// The differences, recorded → sent.
        public var differences: [String]
    }

    /// The request that found no match (as compared: redacted).
    public var request: HTTPRequest
    /// The cassette's path.
    public var cassettePath: String
    /// How many interactions the cassette holds.
    public var interactionCount: Int
    /// The session's record mode, when a recording session asked.
    public var mode: RecordMode?
    /// What the matcher compares.
    public var matching: String
    /// The nearest interactions, nearest first (at most 3).
    public var nearest: [Candidate]
    /// Exact matches that were not served, with the reason ("already played, 2 of 2 used").
    public var skipped: [String]
    /// What to do, as data, most specific first.
    public var suggested: [CassetteFix]
    /// Words ``suggested`` for where the report is read.
    public var context: any FixWording

    /// ``suggested`` as the lines shown under `fix:`.
    public var fixes: [String] { suggested.flatMap(context.lines(for:)) }

    /// The text shown to the user.
    public var description: String {
        var lines = ["no recorded interaction matches \(request.method) \(request.urlText)"]
        let modeText = mode.map { ", mode \($0)" } ?? ""
        lines.append("cassette: \(DisplayPath.relative(cassettePath)) (\(interactionCount) interaction\(interactionCount == 1 ? "" : "s")\(modeText))")
        lines.append("matching on: \(matching)")
        if !skipped.isEmpty {
            lines.append("")
            lines.append("skipped exact matches:")
            lines += skipped.map { "  " + $0 }
        }
        lines.append("")
        if nearest.isEmpty {
            lines.append(interactionCount == 0 ? "the cassette is empty: nothing to compare with"
                : "no other recorded interaction to compare with: the ones that match were already played (above)")
        } else {
            lines.append("nearest recorded interactions (recorded → sent):")
            for (rank, candidate) in nearest.enumerated() {
                lines.append("  \(rank + 1). #\(candidate.index) \(candidate.summary)")
                lines += (candidate.differences.isEmpty ? ["identical as compared"] : candidate.differences).map { "       " + $0 }
            }
        }
        lines.append("")
        lines.append("fix:")
        lines += fixes.map { "  - " + $0 }
        return lines.joined(separator: "\n")
    }
}
