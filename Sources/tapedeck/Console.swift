#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckShell

/// Where the executable writes: stdout for results, stderr for errors and warnings.
enum Console {
    /// Whether stdout is a terminal.
    static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Standard input when it carries a body, as HTTPie reads it: a redirected file
    /// (`< body.json`) or a pipe (`echo … |`), read to the end. A terminal, `/dev/null` or a
    /// closed stdin give nil.
    static func pipedInput() -> Data? {
        var info = stat()
        guard isatty(STDIN_FILENO) == 0, fstat(STDIN_FILENO, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFIFO else { return nil }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return data.isEmpty ? nil : data
    }

    static func write(_ data: Data) {
        data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = fwrite(base, 1, buffer.count, stdout)
        }
    }

    static func write(_ text: String) { write(Data(text.utf8)) }

    /// Writes bytes as they are, without copying them into a `Data` first.
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            _ = fwrite(base, 1, buffer.count, stdout)
        }
    }

    /// Writes to stdout and throws when not everything was written (a closed pipe, a full disk).
    static func writeChecked(_ data: Data) throws {
        let written = data.withUnsafeBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return fwrite(base, 1, buffer.count, stdout)
        }
        guard written == data.count else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A line on stderr that is neither an error nor a warning (`saved 1.2 MB to out.bin`).
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((shown(message) + "\n").utf8))
    }

    /// `text` with its control characters shown as `\xNN` when stderr is a terminal: an error
    /// that quotes a server's text (a Location, a reason phrase) cannot drive the terminal.
    private static func shown(_ text: String) -> String {
        isatty(STDERR_FILENO) == 1 ? TerminalText.visible(text) : text
    }

    static func flush() { fflush(stdout) }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("tapedeck: error: \(shown(message))\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("tapedeck: warning: \(shown(message))\n".utf8))
    }

    /// Prints `error` and returns the documented exit code for it.
    static func report(_ error: any Error, root: any ParsableCommand.Type = TapedeckCommand.self) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        if let http = error as? HTTPError {
            Console.error(http.commandLineDescription)
            return isTransportFailure(http) ? ExitStatus.transport : ExitStatus.usage
        }
        if case .errorStatus? = error as? DownloadError, let message = (error as? DownloadError)?.errorDescription {
            Console.error(message)
            return ExitStatus.badStatus
        }
        if let localized = error as? any LocalizedError, let message = localized.errorDescription {
            Console.error(message)
            return ExitStatus.usage
        }
        // ArgumentParser's own errors: help and --version are clean exits to stdout.
        let code = root.exitCode(for: error)
        let message = root.fullMessage(for: error)
        if code == .success {
            if !message.isEmpty { print(message) }
            return 0
        }
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        let first = lines.first.map { $0.hasPrefix("Error: ") ? String($0.dropFirst(7)) : String($0) } ?? "\(error)"
        let subcommand = CommandLine.arguments.dropFirst().first.flatMap { SubcommandRoot.handles($0) ? $0 : nil }
        let hint = "tapedeck " + (subcommand.map { $0 + " " } ?? "") + "--help"
        Console.error(first.contains("--help") ? first : first + " (see \(hint))")
        return code == .validationFailure ? ExitStatus.usage : code.rawValue
    }

    static func isTransportFailure(_ error: HTTPError) -> Bool {
        switch error {
        case .notConnected, .connectionLost, .cannotConnect, .hostNotFound, .timedOut, .cancelled, .tlsFailure,
             .noResponse, .transport, .redirectScheme, .tooManyRedirects, .bodyTooLarge, .decompressionLimit,
             .headerTooLarge: true
        default: false
        }
    }
}

/// The documented exit codes (see `tapedeck --help`).
enum ExitStatus {
    static let usage: Int32 = 1
    /// `cassette check`: the OpenAPI document or the cassette could not be read.
    static let unreadableInput: Int32 = 2
    static let transport: Int32 = 3
    static let badStatus: Int32 = 4
}
