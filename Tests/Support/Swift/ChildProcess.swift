import Foundation

/// Runs a program to its end and collects what it printed: how tests drive curl, the Python
/// peers (requests, vcrpy, HTTPie) and the `tapedeck` binary.
public enum ChildProcess {
    /// What a finished program left.
    public struct Output: Sendable {
        /// The exit status (or the signal's number when it was killed).
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: Data
        /// Everything written to stderr.
        public var stderr: Data
    }

    /// Runs `executable` with `arguments`, the test's environment with `environment` over it,
    /// and an empty stdin. Both pipes are drained on threads of their own (not the few threads
    /// of `DispatchQueue.global()` on Linux, which blocked reads would starve), so a chatty
    /// program never blocks on a full pipe. Killed after `timeout` seconds, a safety net only.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           timeout: TimeInterval = 60) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let readers = [out, err].map { pipe in
            let reader = Reader(pipe.fileHandleForReading)
            Thread { reader.drain() }.start()
            return reader
        }
        for reader in readers where reader.done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            reader.done.wait()
        }
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: readers[0].data, stderr: readers[1].data)
    }

    /// Reads one pipe to its end on a thread of its own; `done` is signalled once it has.
    private final class Reader: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        private let handle: FileHandle
        private(set) var data = Data()

        init(_ handle: FileHandle) { self.handle = handle }

        func drain() {
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }
}
