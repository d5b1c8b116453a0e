import ArgumentParser
import Foundation
import Tapedeck

/// `--max-age AGE` and `--on-expiry warn|fail|rerecord` for `tapedeck run`, with
/// `TAPEDECK_MAX_AGE` and `TAPEDECK_ON_EXPIRY` as defaults.
struct ExpiryOptions: ParsableArguments {
    @Option(name: .customLong("max-age"), help: ArgumentHelp("Interactions recorded longer ago than this expire (30d, 12h, 2w; default $TAPEDECK_MAX_AGE).", valueName: "age"))
    var maxAge: String?

    @Option(name: .customLong("on-expiry"), help: ArgumentHelp("When the cassette holds expired interactions: warn, fail or rerecord (default $TAPEDECK_ON_EXPIRY, else warn).", valueName: "policy"))
    var onExpiry: String?

    func validate() throws {
        _ = try Self.maxAge(maxAge)
        do { _ = try ExpiryPolicy.resolve(onExpiry.map { text throws(ExpiryError) in try ExpiryPolicy(parsing: text, source: "--on-expiry") }, environment: ProcessInfo.processInfo.environment) } catch {
            throw ValidationError(error.errorDescription ?? "\(error)")
        }
    }

    /// `text`, else `TAPEDECK_MAX_AGE`, else nil; a bad value is a usage error.
    static func maxAge(_ text: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> MaxAge? {
        do {
            if let text { return try MaxAge(parsing: text, source: "--max-age") }
            return try MaxAge.fromEnvironment(environment)
        } catch {
            throw ValidationError(error.errorDescription ?? "\(error)")
        }
    }

    /// The policy typed with `--on-expiry`, if any (`TAPEDECK_ON_EXPIRY` is read when the cassette opens).
    func policy() throws -> ExpiryPolicy? {
        do {
            return try onExpiry.map { text throws(ExpiryError) in try ExpiryPolicy(parsing: text, source: "--on-expiry") }
        } catch {
            throw ValidationError(error.errorDescription ?? "\(error)")
        }
    }
}
