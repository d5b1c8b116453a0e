import Foundation
import Tapedeck

/// In-process benchmarks of this area, by name.
enum CassetteBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [:]
}
