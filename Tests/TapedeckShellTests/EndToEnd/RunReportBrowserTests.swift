import Foundation
import Tapedeck
import TapedeckTestSupport
import Testing

/// `tapedeck run --report-html DIR --report-json FILE`, read in a real browser: Debian's
/// Chromium, headless, dumping the DOM it built and a screenshot.
@Suite("Run reports in a real browser", .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct RunReportBrowserTests {
    let base = Binary.httpbin ?? ""
    static let chromium = "/usr/bin/chromium"
    static let secret = "tok_live_REPORT4711"
    /// A file name a page must show as text, never as markup.
    static let hostileName = "evil<img src=x onerror=alert(1)>.tape"

    /// The DOM Chromium builds from `page` (`--dump-dom`), or a screenshot when `screenshot` is
    /// given. Its profile, temporary files and sockets go in a short folder under /tmp (a
    /// socket path must stay under about 100 bytes, and a test's TMPDIR is longer), removed after.
    static func chromium(_ page: URL, screenshot: URL? = nil) throws -> String {
        let scratch = URL(fileURLWithPath: "/tmp/tapedeck-chrome-" + UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--user-data-dir=\(scratch.path)/profile"]
        if let screenshot { arguments += ["--screenshot=\(screenshot.path)", "--window-size=1200,900", "--hide-scrollbars"] } else { arguments.append("--dump-dom") }
        let result = try ChildProcess.run(chromium, arguments + [page.absoluteString], environment: ["TMPDIR": scratch.path], timeout: 60)
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test("the index lists each file with its result; a file's page shows its requests, headers and pretty bodies, and its failing expect with expected and actual; nothing holds the token; names are text")
    func htmlAndJSON() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium), "make test installs Debian's chromium")
        let folder = try Binary.temporaryDirectory("run-report")
        defer { try? FileManager.default.removeItem(at: folder) }
        let passing = "base {{base}}\nget /headers Authorization:'Bearer \(Self.secret)'\nexpect 200\nexpect json $.headers.Authorization exists\n"
        let failing = "base {{base}}\nget /json\nexpect 200\nget /status/418\nexpect 200\n"
        try Data(passing.utf8).write(to: folder.appendingPathComponent("pass.tape"))
        try Data(failing.utf8).write(to: folder.appendingPathComponent(Self.hostileName))
        let outcome = try Binary.run(["run", "--jobs", "2", "--continue-on-error", "--report-html", "report", "--report-json", "report.json",
                                      "--var", "base=\(base)", "pass.tape", Self.hostileName], in: folder)
        #expect(outcome.status == 4, "\(outcome.stdout)\(outcome.stderr)")

        let report = folder.appendingPathComponent("report")
        let files = try FileManager.default.contentsOfDirectory(atPath: report.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(files == ["file-1.html", "file-2.html", "index.html"])
        for name in files + ["../report.json"] {
            let text = try String(contentsOf: report.appendingPathComponent(name), encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(name) holds the token")
            #expect(!text.contains("http://") || !text.contains("https://cdn"), "\(name) fetches nothing")
        }

        let index = try Self.chromium(report.appendingPathComponent("index.html"))
        #expect(index.contains("1 passed, 1 failed · 3 requests ("), "\(index)")
        #expect(index.contains(#"<tr class="passed"><td><a href="file-1.html">pass.tape</a></td><td>passed</td>"#), "\(index)")
        #expect(index.contains("evil&lt;img src=x onerror=alert(1)&gt;.tape</a></td><td>failed</td>"), "the name is text: \(index)")
        #expect(!index.contains("<img"), "no element came from a file name")

        let failed = try Self.chromium(report.appendingPathComponent("file-2.html"))
        #expect(failed.contains(#"<div class="failure">"#), "\(failed)")
        #expect(failed.contains("<dt>expected</dt><dd><code>== 200</code></dd><dt>actual</dt><dd><code>418</code></dd>"), "\(failed)")
        #expect(failed.contains("/status/418</span> <span class=\"status\">418 "), "\(failed)")
        #expect(failed.contains("\"slideshow\": {"), "a JSON body is shown pretty: \(failed)")
        let passed = try Self.chromium(report.appendingPathComponent("file-1.html"))
        #expect(passed.contains("<th>Authorization</th><td>Bearer &lt;REDACTED&gt;</td>"), "\(passed)")

        let shot = folder.appendingPathComponent("failed.png")
        _ = try Self.chromium(report.appendingPathComponent("file-2.html"), screenshot: shot)
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 10_000, "a rendered page, \(png.count) bytes")

        let json = try JSONParser.parse(Data(contentsOf: folder.appendingPathComponent("report.json")))
        #expect(json.value(at: "/summary/files")?.doubleValue == 2 && json.value(at: "/summary/failed")?.doubleValue == 1)
        #expect(json.value(at: "/files/1/name")?.stringValue == Self.hostileName)
        #expect(json.value(at: "/files/1/failures/0/expected")?.stringValue == "== 200")
        #expect(json.value(at: "/files/1/failures/0/actual")?.stringValue == "418")
        let jsonText = String(decoding: try Data(contentsOf: folder.appendingPathComponent("report.json")), as: UTF8.self)
        #expect(jsonText.contains("\"Bearer <REDACTED>\""), "\(jsonText)")
    }

    @Test("a report folder that cannot be written is refused before any script runs, with the path and the reason")
    func unwritableFolder() throws {
        let folder = try Binary.temporaryDirectory("run-report-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("print ran\n".utf8).write(to: folder.appendingPathComponent("a.tape"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("taken"))
        let file = try Binary.run(["run", "--report-html", "taken", "a.tape"], in: folder)
        #expect(file.status == 1 && !file.stdout.contains("ran"))
        #expect(file.stderr.contains("--report-html taken: it is a file, not a folder"), "\(file.stderr)")
        let blocked = try Binary.run(["run", "--report-html", "taken/report", "a.tape"], in: folder)
        #expect(blocked.status == 1 && !blocked.stdout.contains("ran"))
        #expect(blocked.stderr.contains("--report-html taken/report: the folder cannot be written"), "\(blocked.stderr)")
    }
}
