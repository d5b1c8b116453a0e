#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Dispatch
import Foundation
import Tapedeck
import TapedeckServer

/// Where `serve` and `proxy` listen, their limits, and the latency and faults they play.
struct ListenOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Address to listen on (loopback unless told otherwise).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("Port to listen on; 0 picks a free one.", valueName: "port"))
    var port = 8080

    @Option(name: .customLong("port-file"), help: ArgumentHelp("Write the port chosen to this file (for scripts with --port 0).", valueName: "file"))
    var portFile: String?

    @Option(name: .long, help: ArgumentHelp("Delay each answer: recorded (the recorded duration), MS, or xFACTOR of the recorded duration.", valueName: "latency"))
    var latency: String?

    @Option(name: .customLong("fault"), help: ArgumentHelp(
        "Inject a fault: [METHOD] PATH=ACTION[@RATE%], ACTION reset, timeout, status:CODE, truncate, slow:BYTES_PER_S (repeatable).",
        valueName: "rule"))
    var faults: [String] = []

    @Option(name: .long, help: ArgumentHelp("Seed for fault rates, so runs repeat.", valueName: "n"))
    var seed: UInt64 = 0

    @Option(name: .customLong("max-body"), help: ArgumentHelp("Largest request body accepted, in bytes (more gets 413).", valueName: "bytes"))
    var maxBody = 64 * 1024 * 1024

    @Option(name: .customLong("control-token"), help: ArgumentHelp(
        "The token the /__tapedeck/ control endpoints need (X-Tapedeck-Token); random for each run unless given.", valueName: "token"))
    var controlToken: String?

    @Option(name: .customLong("cassette-dir"), help: ArgumentHelp(
        "The folder cassettes named through the control endpoints must be in (default: the working directory).", valueName: "dir"))
    var cassetteDirectory: String?

    @Flag(name: .long, help: "Serve the live inspector at /__tapedeck/ui/TOKEN/: requests appear as they are answered (loopback, the control token in its address).")
    var ui = false

    @Option(name: .customLong("read-timeout"), help: ArgumentHelp("Seconds a request may take to arrive; slower clients are dropped.", valueName: "seconds"))
    var readTimeout: Double = 30

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port; give 1 to 65535, or 0 for a free one") }
        guard maxBody > 0 else { throw ValidationError("--max-body \(maxBody) must be a positive number of bytes") }
        guard readTimeout.isFinite, readTimeout > 0, readTimeout <= 2_000_000 else {
            throw ValidationError("--read-timeout \(readTimeout) \(readTimeout > 2_000_000 ? "is more than 2000000 seconds" : "must be a positive number of seconds"); "
                + "give the seconds a request may take to arrive, from 0.001 to 2000000, e.g. --read-timeout 30")
        }
        if let controlToken, controlToken.count < 16 || !controlToken.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) {
            throw ValidationError("--control-token must be at least 16 letters, digits or -_.~ (it guards the control endpoints)")
        }
        if let cassetteDirectory, !FileManager.default.directoryExists(atPath: cassetteDirectory) {
            throw ValidationError("--cassette-dir '\(cassetteDirectory)' is not a folder")
        }
        _ = try conditions()
    }

    func conditions() throws -> NetworkConditions {
        do {
            return NetworkConditions(latency: try latency.map { try Latency(parsing: $0, source: "--latency") } ?? .none,
                                     faults: try faults.map { try FaultRule(parsing: $0, source: "--fault") }, seed: seed)
        } catch {
            throw ValidationError(error.localizedDescription)
        }
    }

    var limits: ServerLimits { ServerLimits(maxBodyBytes: maxBody, readTimeout: readTimeout) }

    /// Sets the listening limits, the conditions and who may use the control endpoints.
    func apply(to options: inout DeckOptions) throws {
        options.conditions = try conditions()
        options.limits = limits
        if let controlToken { options.controlToken = controlToken }
        options.inspector = ui
        if let cassetteDirectory { options.cassetteDirectory = URL(fileURLWithPath: cassetteDirectory) }
    }

    /// Whether `host` is a loopback address, reachable from this machine only.
    static func isLoopback(_ host: String) -> Bool {
        CassetteServer.isLoopback(host)
    }
}
