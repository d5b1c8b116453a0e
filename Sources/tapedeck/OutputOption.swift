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

/// Checks a report folder (`--report-html DIR`) before any work starts: it is created if
/// missing, and a file is written in it and removed, so a folder that cannot take the report
/// is refused with its path and the reason before a script runs.
enum OutputFolderOption {
    static func check(_ path: String?, option: String) throws {
        guard let path else { return }
        let folder = URL(fileURLWithPath: path)
        if FileManager.default.fileExists(atPath: path), !FileManager.default.directoryExists(atPath: path) {
            throw ValidationError("\(option) \(path): it is a file, not a folder; name a folder for the report, e.g. \(option) report")
        }
        let probe = folder.appendingPathComponent(".tapedeck-write-check-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try OutputPath.write(Data(), to: probe)
            try FileManager.default.removeItem(at: probe)
        } catch {
            // Name what is in the way: a file where a folder of the path should be.
            var ancestor = folder
            while ancestor.path != "/" {
                if FileManager.default.fileExists(atPath: ancestor.path), !FileManager.default.directoryExists(atPath: ancestor.path) {
                    throw ValidationError("\(option) \(path): the folder cannot be written: \(ancestor.path) is a file; choose a folder you can write")
                }
                ancestor.deleteLastPathComponent()
            }
            let reason = (error as? OutputPath.Failure)?.reason ?? "permission denied or a read-only file system"
            throw ValidationError("\(option) \(path): the folder cannot be written (\(reason)); choose a folder you can write")
        }
    }
}

/// Checks `--replay CASSETTE` before starting: a missing file is a usage error (exit 1).
enum ReplayOption {
    static func check(_ path: String?) throws {
        // A cassette a killed recording left as its journal alone is one: opening it merges it.
        guard let path, !Cassette.exists(at: URL(fileURLWithPath: path)) else { return }
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
