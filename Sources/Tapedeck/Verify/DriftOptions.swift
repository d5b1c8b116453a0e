import Foundation

/// What `tapedeck cassette verify` and the testing library's verify mode compare between a
/// recorded response and the live one.
///
/// ```swift
/// let options = try DriftOptions(compare: "status,headers:ETag,shape", ignoring: ["/data/updated_at"])
/// ```
public struct DriftOptions: Sendable, Hashable {
    /// Whether the status codes must be equal.
    public var status: Bool
    /// Response header names whose values must be equal.
    public var headers: [String]
    /// Whether JSON bodies must keep their shape (members added, removed or retyped) and
    /// other bodies their content type and size class.
    public var shape: Bool
    /// Whether JSON leaf values (and array lengths) must be equal too.
    public var values: Bool
    /// JSON Pointers skipped, with everything below them; a `*` token matches any key or index.
    public var ignoredPointers: [String]

    /// Creates options; the default compares status and shape.
    public init(status: Bool = true, headers: [String] = [], shape: Bool = true, values: Bool = false,
                ignoredPointers: [String] = []) {
        self.status = status
        self.headers = headers
        self.shape = shape
        self.values = values
        self.ignoredPointers = ignoredPointers
    }

    /// The words `--compare` accepts.
    public static let compareWords = ["status", "headers:NAME", "shape", "values"]

    /// Parses `--compare status,headers:ETag,shape,values` (comma-separated, repeatable
    /// `headers:NAME`) and `--ignore` pointers, naming the bad word and the valid ones.
    public init(compare: String?, ignoring: [String] = []) throws(VerifyError) {
        self.init(ignoredPointers: ignoring)
        for pointer in ignoring where !pointer.hasPrefix("/") {
            throw .invalidIgnore(pointer)
        }
        guard let compare else { return }
        status = false
        shape = false
        for raw in compare.split(separator: ",") {
            let word = raw.trimmingCharacters(in: .whitespaces)
            switch word.lowercased() {
            case "status": status = true
            case "shape": shape = true
            case "values": values = true; shape = true
            default:
                let parts = word.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, ["header", "headers"].contains(parts[0].lowercased()),
                      !parts[1].trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw .invalidCompare(word)
                }
                headers.append(parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
    }

    /// Whether `pointer` is `ignored` or lies below an ignored pointer.
    public func ignores(_ pointer: String) -> Bool {
        guard !ignoredPointers.isEmpty else { return false }
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return ignoredPointers.contains { pattern in
            let wanted = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard wanted.count <= tokens.count else { return false }
            return zip(wanted, tokens).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }
}
