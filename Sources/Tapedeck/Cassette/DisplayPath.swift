import Foundation

/// How messages show a file path: relative to the working directory when it lies inside it
/// (what a user typed), else as is.
package enum DisplayPath {
    /// `path` relative to `workingDirectory` when inside it (`Sessions/a.json`), else `path`.
    package static func relative(_ path: String, to workingDirectory: String = FileManager.default.currentDirectoryPath) -> String {
        let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
        return path.hasPrefix(base) && path.count > base.count ? String(path.dropFirst(base.count)) : path
    }
}
