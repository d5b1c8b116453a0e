import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Drives `tapedeck repl` in a real terminal: a tmux server on its own socket, an isolated
/// HOME and XDG_STATE_HOME, keys in with `send-keys`, the screen out with `capture-pane`.
final class TmuxSession {
    static var available: Bool {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The server's socket, inside `home` (not tmux's shared folder), removed by ``stop()``.
    let socket: String
    let home: URL

    init(home: URL) {
        self.home = home
        socket = home.appendingPathComponent(".tmux-\(UUID().uuidString.prefix(8))").path
    }

    var historyFile: URL { home.appendingPathComponent("state/tapedeck/history") }

    /// Starts `tapedeck ARGUMENTS` in a 120×40 terminal, with `environment` set over the test's
    /// (an empty value sets the variable empty, e.g. `CI` so recording is not refused). With
    /// `holdAfterExit` the pane stays open after the program ends and shows `[exit N]`, so a
    /// short command's output can be read.
    func start(_ arguments: [String], environment: [String: String] = [:], holdAfterExit: Bool = false) throws {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var command = (["env", "HOME=\(home.path)", "XDG_STATE_HOME=\(home.path)/state", "LANG=C.UTF-8", "TERM=xterm-256color", "NO_COLOR=1"]
                       + settings + [Binary.path ?? "tapedeck"] + arguments).map(Self.shellQuote).joined(separator: " ")
        if holdAfterExit { command += "; echo \"[exit $?]\"; sleep 120" }
        try spawn(["tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "120", "-y", "40", command])
    }

    /// Sends keys (tmux key names such as `Enter`, `Tab`, `C-c`, `Up`), or literal text with `literal`.
    func send(_ keys: String..., literal: Bool = false) throws {
        try tmux(["send-keys", "-t", "t"] + (literal ? ["-l"] : []) + keys)
    }

    /// Types text literally, then the given keys.
    func type(_ text: String, then keys: String...) throws {
        try tmux(["send-keys", "-t", "t", "-l", text])
        if !keys.isEmpty { try tmux(["send-keys", "-t", "t"] + keys) }
    }

    /// Resizes the terminal, as a user dragging its window does (the program gets `SIGWINCH`).
    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "t", "-x", String(width), "-y", String(height)])
    }

    /// The pane's title, which a program sets with `ESC ] 0 ; … BEL`.
    func title() throws -> String {
        try tmux(["display-message", "-p", "-t", "t", "#{pane_title}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The screen and scrollback.
    func screen() throws -> String {
        try tmux(["capture-pane", "-p", "-J", "-t", "t", "-S", "-200"])
    }

    /// Polls the screen until `condition` holds or `seconds` pass; returns the last screen.
    @discardableResult
    func waitFor(_ seconds: Double = 10, _ condition: (String) -> Bool) throws -> (matched: Bool, screen: String) {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = (try? screen()) ?? ""
            if condition(last) { return (true, last) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (false, last)
    }

    /// Whether the REPL process has exited (the tmux session is gone).
    var isRunning: Bool { (try? tmux(["has-session", "-t", "t"])) != nil }

    func stop() {
        _ = try? tmux(["kill-server"])
        unlink(socket)
    }

    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-S", socket] + arguments
        // The server started by new-session inherits the client's descriptors: give it none of
        // ours, or reading to end of file would wait for the server to exit.
        let output = Pipe()
        process.standardOutput = capture ? output : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = capture ? output.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
        return String(decoding: data, as: UTF8.self)
    }

    /// Runs a command that daemonizes (tmux new-session) with posix_spawn and waitpid:
    /// Foundation's Process would wait for descriptors the daemon inherits.
    private func spawn(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor in Int32(0)...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // Test threads block signals; tmux must not inherit that mask or it never sees SIGCHLD.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { throw CocoaError(.executableLoad) }
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        guard status == 0 else { throw CocoaError(.executableLoad) }
    }

    private static func shellQuote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
