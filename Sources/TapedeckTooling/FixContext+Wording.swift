import Foundation
import Tapedeck

extension FixContext: FixWording {
    /// The lines for `fix`, worded for this context (see ``FixContext``).
    package func lines(for fix: CassetteFix) -> [String] {
        switch fix {
        case .record(let path, let mode):
            return [recordFix(path: path, mode: mode)]
        case .recordMissing(let path):
            return [missingFix(path: path)]
        case .allowRepeats(let path, let mode):
            return repeatFix(path: path, mode: mode).map { [$0] } ?? []
        case .changeMatcher(let reason, let option, let spec, let path, let mode):
            return matcherFix(reason, option, spec: spec, path: path, mode: mode).map { [$0] } ?? []
        case .serveAtOrigin(let recorded, let sent, let path, let mode):
            return originFix(recorded: recorded, sent: sent, path: path, mode: mode).map { [$0] } ?? []
        case .redact(let findings):
            return lintFixes(findings)
        case .listInteractions(let path):
            return ["tapedeck cassette show \(Self.word(path)) lists them"]
        }
    }
}
