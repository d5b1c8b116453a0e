import Foundation
@_spi(Tooling) import Tapedeck

/// Where REPL history lives: `$XDG_STATE_HOME/tapedeck/history`, else
/// `~/.local/state/tapedeck/history`; created with mode 0600 (it may hold tokens).
public enum HistoryFile {
    /// The most lines kept.
    public static let limit = 1000

    /// The history path for `environment`.
    public static func url(environment: [String: String]) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("tapedeck/history")
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/tapedeck/history")
    }

    /// Creates the folder (0700) and an empty file (0600) if missing, and tightens the mode of
    /// an existing file; returns false when the location is not writable.
    @discardableResult
    public static func prepare(_ url: URL) -> Bool {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                        attributes: [.posixPermissions: 0o700])
            if !manager.fileExists(atPath: url.path) {
                guard manager.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else { return false }
            }
            try manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            return true
        } catch {
            return false
        }
    }

    /// Writes `entries` (already redacted) in libedit's history format, atomically, keeping
    /// the file's mode; returns false when it cannot be written.
    @discardableResult
    public static func write(_ entries: [String], to url: URL) -> Bool {
        let text = "_HiStOrY_V2_\n" + entries.suffix(limit).map { encode($0) + "\n" }.joined()
        do {
            try FileAccess.writeAtomically(Data(text.utf8), to: url)
            return true
        } catch {
            return false
        }
    }

    /// One line as libedit's reader unescapes it (vis(3)): printable ASCII stays, a backslash
    /// is doubled, every other byte (spaces, tabs, UTF-8) is a three-digit octal escape.
    static func encode(_ line: String) -> String {
        var out = ""
        for byte in line.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x21...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out
    }
}
