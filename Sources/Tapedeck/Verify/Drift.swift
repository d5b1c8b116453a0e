import Foundation

/// One difference between a recorded response and the live one, at a field or a JSON Pointer.
///
/// ```swift
/// Drift(kind: .removed, field: "body", pointer: "/email", recorded: "string", live: nil).description
/// // body /email: string → (absent)
/// ```
public struct Drift: Sendable, Hashable, CustomStringConvertible {
    /// What kind of difference.
    public enum Kind: String, Sendable, Hashable {
        /// The status code changed.
        case status
        /// A compared header changed.
        case header
        /// A JSON member or element exists live but was not recorded.
        case added
        /// A recorded JSON member or element is gone.
        case removed
        /// A JSON value changed type (`number` → `string`).
        case retyped
        /// A JSON value changed (only with `values`).
        case value
        /// The media type changed.
        case contentType
        /// A non-JSON body moved to another size class.
        case size
    }

    /// The kind.
    public var kind: Kind
    /// `status`, `header NAME`, `body`, `content type` or `body size`.
    public var field: String
    /// The JSON Pointer for body drift (`""` is the whole document), else nil.
    public var pointer: String?
    /// What was recorded, as shown (`"string"`, `200`, `(absent)` when nil).
    public var recorded: String?
    /// What the live response has, as shown.
    public var live: String?
    /// How many more array elements drifted the same way (reported once, at the first).
    public var alsoInOtherElements = 0

    /// Creates a drift.
    public init(kind: Kind, field: String, pointer: String? = nil, recorded: String?, live: String?) {
        self.kind = kind
        self.field = field
        self.pointer = pointer
        self.recorded = recorded
        self.live = live
    }

    /// `body /age: number → string`, `status: 200 → 404`: recorded → live, as the mismatch report writes it.
    public var description: String {
        let place = pointer.map { "\(field) \($0.isEmpty ? "/" : $0)" } ?? field
        let more = alsoInOtherElements > 0
            ? " (and \(alsoInOtherElements) more element\(alsoInOtherElements == 1 ? "" : "s"))" : ""
        let verb: String
        switch kind {
        case .added: verb = " [added]"
        case .removed: verb = " [removed]"
        case .retyped: verb = " [retyped]"
        default: verb = ""
        }
        return "\(place): \(recorded ?? "(absent)") → \(live ?? "(absent)")\(verb)\(more)"
    }
}
