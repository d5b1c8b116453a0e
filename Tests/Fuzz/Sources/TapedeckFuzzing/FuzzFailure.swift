import Foundation
import Synchronization

/// A wrong answer that is not a crash (a broken round trip, an empty error message), kept
/// with its input so the driver can report it and save it.
public struct FuzzFailure: Sendable {
    /// What went wrong.
    public enum Kind: String, Sendable {
        case roundTrip = "parse → write → parse changed the value"
        case emptyMessage = "an error with an empty message"
    }

    /// What went wrong.
    public var kind: Kind
    /// The input that did it.
    public var input: Data

    private static let found = Mutex<[FuzzFailure]>([])

    static func record(_ kind: Kind, input: Data) {
        found.withLock { $0.append(FuzzFailure(kind: kind, input: input)) }
    }

    /// The failures recorded since the last call, cleared.
    public static func drain() -> [FuzzFailure] {
        found.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }
}
