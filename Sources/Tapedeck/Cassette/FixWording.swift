import Foundation

/// Words a ``CassetteFix`` for where the error is read. The core's own wording is
/// ``LibraryFixWording`` (Swift options, for app code and tests); the command line and the
/// testing library pass theirs through ``CassetteConfiguration/wording``.
public protocol FixWording: Sendable {
    /// The lines that tell the reader how to apply `fix`; empty when it cannot be applied where they read it.
    func lines(for fix: CassetteFix) -> [String]
}
