import ArgumentParser
import Foundation

/// A size typed on the command line: `1048576`, `512K`, `100M`, `2G` (powers of 1024).
struct ByteSize: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Int)] = [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10), ("B", 1)]
        var number = Substring(text)
        var scale = 1
        for (suffix, value) in units where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            if number.hasSuffix("I") { number = number.dropLast() }
            scale = value
            break
        }
        guard let count = Int(number), count > 0 else { return nil }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        self.bytes = bytes
    }

    static var defaultValueDescription: String { "100M" }

    /// As typed: `100M`, `512K`, `2G`, or the bytes (what `--help` shows as the default).
    var description: String {
        for (suffix, value) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] where bytes >= value && bytes.isMultiple(of: value) {
            return "\(bytes / value)\(suffix)"
        }
        return String(bytes)
    }
}
