import Foundation
import Tapedeck
import TapedeckTooling
#if canImport(Testing)
import Testing
#endif

/// The running test, so error messages can name it in `swift test --filter`.
enum CurrentTest {
    /// `.unitTests(filter:)` with the Swift Testing function's name (`readsSlideshow` for
    /// `readsSlideshow()`), or no filter where the test is unknown (XCTest, or no test at all).
    ///
    /// Read it when the session is made: the replay itself runs on URLSession's queue, outside
    /// the test's task, where `Test.current` is nil.
    static var context: FixContext {
        #if canImport(Testing)
        if let name = Test.current?.name {
            let function = name.prefix { $0 != "(" }
            return .unitTests(filter: function.isEmpty ? nil : String(function))
        }
        #endif
        return .unitTests(filter: nil)
    }
}
