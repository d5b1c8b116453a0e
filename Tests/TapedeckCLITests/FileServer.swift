import Foundation
import TapedeckTestSupport

/// A real HTTP server on a free loopback port serving the files of a temporary folder
/// (`python3 -m http.server`): a test changes a file and the API "drifts".
final class FileServer {
    let directory: URL
    let process = Process()
    let url: URL

    init() throws {
        directory = try TestScratch.directory("tapedeck-files")
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The server unblocks the signals it inherits blocked from the test process, so that
        // `terminate()` stops it. (It must keep its inherited descriptors: Foundation watches one
        // of them to learn that the child exited.)
        process.arguments = ["python3", "-u", "-c", Self.script, directory.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "port 41233"
        var text = ""
        while !text.contains("\n") {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
              let port = Int(text[range].dropFirst(5)), let url = URL(string: "http://127.0.0.1:\(port)") else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "http.server said: \(text)"])
        }
        self.url = url
    }

    static let script = """
        import functools, http.server, os, signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args): pass
            def do_GET(self):
                with open(os.path.join(sys.argv[1], ".requests"), "a") as log:
                    log.write("%s %s\\n" % (self.path, self.headers.get("Authorization", "")))
                super().do_GET()
        handler = functools.partial(Handler, directory=sys.argv[1])
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        print("port", server.server_address[1])
        server.serve_forever()
        """

    /// Each GET the server answered: its path and its Authorization header, one line each.
    var requests: [String] {
        let log = (try? String(contentsOf: directory.appendingPathComponent(".requests"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Writes `text` as the file `name` the server serves.
    func serve(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: directory.appendingPathComponent(name))
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }
}
