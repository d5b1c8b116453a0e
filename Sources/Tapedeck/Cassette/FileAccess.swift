import Foundation

/// Whole-file reads and atomic writes for cassettes, exports and usage records, with failure
/// reasons people can act on: corelibs says "The operation could not be completed.
/// (NSCocoaErrorDomain error 512.)" where the cause is "Not a directory".
enum FileAccess {
    /// Why a read or write failed, in words (`no such file`, `Is a directory`, …).
    struct Failure: Error {
        /// The reason, without the path (callers name the file themselves).
        var reason: String
    }

    /// Reads the whole file.
    static func read(_ url: URL) throws(Failure) -> Data {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Failure(reason: "it is a directory, not a cassette file; give the path of a file inside it")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { throw Failure(reason: "no such file") }
            throw Failure(reason: reason(error))
        }
    }

    /// Creates the parent directory if needed, then writes `data` to a temporary file and
    /// renames it over `url`: a crash or `kill -9` leaves the old file or the new one.
    static func writeAtomically(_ data: Data, to url: URL) throws(Failure) {
        try makeParentDirectory(of: url)
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw Failure(reason: reason(error))
        }
    }

    /// Creates the directory `url` goes in, unless `url` itself is a directory or a file is in the way.
    static func makeParentDirectory(of url: URL) throws(Failure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Failure(reason: "it is a directory; name a file inside it")
        }
        // Foundation reports a file in the way of the directory as "File exists".
        var ancestor = url.deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isDirectory), ancestor.path != "/" {
            ancestor = ancestor.deletingLastPathComponent()
        }
        if !isDirectory.boolValue {
            throw Failure(reason: "\(ancestor.path) is a file, so the directory cannot be made; choose another path")
        }
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw Failure(reason: reason(error))
        }
    }

    /// The underlying POSIX reason (`Not a directory`, `Permission denied`, …) when Foundation
    /// wrapped one, else the error's own description.
    static func reason(_ error: any Error) -> String {
        let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
        if let posix { return String(cString: strerror(posix.code.rawValue)) }
        return error.localizedDescription
    }
}
