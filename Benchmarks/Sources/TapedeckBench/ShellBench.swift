import Foundation
import TapedeckCurl
import Tapedeck
import TapedeckShell

/// In-process benchmarks of the command language.
enum ShellBench {
    static let cases: [String: @Sendable ([String]) async throws -> String] = [
        "shell-parse": parse,
        "shell-run": run,
    ]

    /// `shell-parse [LINES]`: parses a generated script of LINES lines (default 10,000) with
    /// every kind of command, heredocs included; best of 5.
    @Sendable static func parse(_ arguments: [String]) async throws -> String {
        let lines = arguments.first.flatMap(Int.init) ?? 10_000
        let script = generatedScript(lines: lines)
        var best = Double.infinity
        var statements = 0
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            statements = try Parser.parseScript(script, file: "bench.tape").count
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        return #"{"name":"shell-parse","lines":\#(lines),"statements":\#(statements),"ms":\#(String(format: "%.2f", best)),"lines_per_s":\#(Int(Double(lines) / best * 1000))}"#
    }

    /// `shell-run URL N`: runs a script of N `get URL` + `expect 200` pairs through the
    /// interpreter on the libcurl transport, in this process; microseconds per request.
    @Sendable static func run(_ arguments: [String]) async throws -> String {
        guard let url = arguments.first else { throw ShellBenchError.usage("shell-run URL [N]") }
        let count = arguments.dropFirst().first.flatMap(Int.init) ?? 1000
        let script = String(repeating: "get \(url)\nexpect 200\n", count: count)
        let microseconds = try await runScript(script)
        return #"{"name":"shell-run","requests":\#(count),"us_per_request":\#(String(format: "%.1f", microseconds / Double(count)))}"#
    }

    @MainActor
    private static func runScript(_ script: String) async throws -> Double {
        let shell = Interpreter(transport: CurlTransport(), output: .discarding)
        let start = DispatchTime.now().uptimeNanoseconds
        try await shell.run(source: script, file: "bench.tape")
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e3
    }

    private static func generatedScript(lines: Int) -> String {
        let block = """
            # a comment line
            base http://127.0.0.1:8080/api
            header Authorization: Bearer {{token}}
            query lang=en
            set user = ada
            cd users/{{user}}
            get /items/{{id}} q==search Accept:application/json X-Trace:1
            expect 200
            expect json $.items[?(@.sku == "b")].qty count >= 1
            capture id = json $.items[-1].id
            post /items name=Ada age:=36 tags:='["a","b"]' --form
            put /items/1 <<EOF
            {"id": 1, "name": "{{user}}"}
            EOF
            expect header Content-Type matches /json/
            show curl
            """
        let blockLines = block.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [Substring] = []
        out.reserveCapacity(lines)
        while out.count < lines { out.append(contentsOf: blockLines) }
        // Never cut a heredoc in half.
        while out.count > lines || (out.last.map { $0.hasPrefix("put ") || $0.hasPrefix("{") } ?? false) { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }
}

/// Bad benchmark arguments.
enum ShellBenchError: Error, CustomStringConvertible {
    case usage(String)
    var description: String {
        switch self { case .usage(let text): "usage: \(text)" }
    }
}
