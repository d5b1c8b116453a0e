import Foundation

/// A malformed JSONPath expression: what was expected and the 1-based column in the path.
public struct JSONPathError: Error, LocalizedError, Hashable, Sendable {
    /// The expression.
    public var path: String
    /// The 1-based column of the problem within the expression.
    public var column: Int
    /// What was expected there.
    public var reason: String

    /// Creates an error.
    public init(path: String, column: Int, reason: String) {
        self.path = path
        self.column = column
        self.reason = reason
    }

    public var errorDescription: String? {
        "invalid JSONPath '\(path)' at column \(column): \(reason)"
    }
}
