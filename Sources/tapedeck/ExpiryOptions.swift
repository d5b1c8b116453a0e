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

    /// What to do with the cassette at `path` before a run: nil when nothing expired (or no limit
    /// is set, or the file does not exist yet); else the policy and the report.
    func check(path: String, environment: [String: String]) throws -> (policy: ExpiryPolicy, report: String)? {
        guard let limit = try Self.maxAge(maxAge, environment: environment),
              FileManager.default.fileExists(atPath: path) else { return nil }
        let cassette = try CassetteFile.load(URL(fileURLWithPath: path))
        let expiry = CassetteExpiry(cassette, maxAge: limit)
        guard !expiry.expired.isEmpty else { return nil }
        let policy = try ExpiryPolicy.resolve(try onExpiry.map { text throws(ExpiryError) in try ExpiryPolicy(parsing: text, source: "--on-expiry") },
                                              environment: environment)
        return (policy, expiry.report(path: path, total: cassette.interactions.count))
    }
}
