import Foundation
import Tapedeck

/// In-process benchmarks of this area, by name.
enum CLIBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [:]
}
