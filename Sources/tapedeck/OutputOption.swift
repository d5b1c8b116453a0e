import ArgumentParser
import Foundation
import Tapedeck

/// Checks an output path given on the command line (`--report-junit`, `--report-tap`,
/// `--record`, `convert`'s OUT) before any work starts, by the rule every output follows
/// (``OutputPath``): missing directories are created, impossible paths are refused.
enum OutputOption {
    static func check(_ path: String?, option: String) throws {
        guard let path else { return }
        if let problem = OutputPath.problem(with: URL(fileURLWithPath: path)) {
            throw ValidationError("\(option) \(path): \(problem)")
        }
    }
}

/// Checks `--replay CASSETTE` before starting: a missing file is a usage error (exit 1).
enum ReplayOption {
    static func check(_ path: String?) throws {
        guard let path, !FileManager.default.fileExists(atPath: path) else { return }
        throw ValidationError("--replay \(path): no such cassette; check the path, or record it first with --record \(path)")
    }
}

extension FileManager {
    /// Whether a directory (or a symlink to one) is at `path`.
    func directoryExists(atPath path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
