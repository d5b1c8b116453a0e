import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckShell

/// One HTTPie-style request: parse the words, send, render, and pick the exit code.
struct OneShot {
    var options: OneShotOptions
    var words: [String]

    func run() async throws -> Int32 {
        if let flag = words.first(where: Self.isOption) {
            throw ValidationError("unknown option '\(flag)'")
        }
        let mode = try bodyMode()
        let split = try CommandLineRequest.split(words)
        let url = try URLShorthand.parse(split.url)
        var items = try RequestItems.parse(split.items, baseDirectory: nil)
        if let raw = options.raw {
            items.rawBody = Data(raw.utf8)
        } else if !options.ignoreStdin, let piped = Console.pipedInput() {
            items.rawBody = piped
            // `--form` says what a body from standard input is, as HTTPie takes it.
            if options.form { items.rawBodyContentType = "application/x-www-form-urlencoded; charset=utf-8" }
        }
        var request = try items.request(method: split.method, url: url, mode: mode)
        if options.raw == nil, let body = request.body, items.rawBody != nil, !request.headers.contains("Content-Type"),
           (try? JSONParser.parse(body)) != nil {
            // HTTPie sends a JSON body from standard input as application/json.
            request.headers["Content-Type"] = "application/json"
        }
        request.addDefaultHeaders()

        let renderer = try makeRenderer()
        let requestText = renderer.render(request)
        Console.write(requestText)

        let response: HTTPResponse
        if let download = options.download {
            response = try await BodyStream.download(request, through: makeTransport(), to: download, renderer: renderer)
        } else if !renderer.options.terminal, renderer.options.parts == .responseBody, options.pretty == nil {
            // Piped, the body alone is byte-exact: it streams straight through, whatever its size
            // (with --print hb the status line's size needs the whole body, so it is held, and
            // so does an explicit --pretty, which asks for it formatted).
            response = try await BodyStream.toStandardOutput(request, through: makeTransport(), renderer: renderer)
        } else {
            response = try await makeTransport().send(request)
            Console.write(renderer.output(for: response))
        }
        if options.checkStatus, response.status >= 400 {
            Console.flush()
            Console.warning("HTTP \(response.status) \(response.reason)")
            return ExitStatus.badStatus
        }
        return 0
    }

    /// Whether a word on the command line is an option's spelling, not a URL or an item:
    /// `-x`, `--name`, or `--name=value` (an item's name cannot start with `-`).
    private static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        if !word.contains(where: { ":=@".contains($0) }) { return true }
        return word.hasPrefix("--") && word.dropFirst(2).prefix { $0 != "=" }.allSatisfy { $0.isLetter || $0 == "-" }
    }

    private func bodyMode() throws -> BodyMode {
        if options.form && options.multipart {
            throw ValidationError("--form and --multipart cannot be combined; --multipart alone sends fields and files as parts")
        }
        if options.raw != nil && (options.form || options.multipart) {
            throw ValidationError("--raw sends the body as given and cannot be combined with --form or --multipart")
        }
        return options.multipart ? .multipart : options.form ? .form : .json
    }

    private func makeRenderer() throws -> ResponseRenderer {
        let terminal = Console.stdoutIsTerminal
        var renderOptions = RenderOptions.automatic(isTerminal: terminal, environment: ProcessInfo.processInfo.environment)
        if let pretty = options.pretty { try renderOptions.applyPretty(pretty) }
        let chosen = [options.print != nil, options.verbose, options.headersOnly, options.bodyOnly].filter { $0 }.count
        if chosen > 1 { throw ValidationError("choose one of --print, --verbose, --headers and --body") }
        if let letters = options.print { renderOptions.parts = try PrintParts(letters: letters) }
        if options.verbose { renderOptions.parts = .all }
        if options.headersOnly { renderOptions.parts = .responseHeaders }
        if options.bodyOnly { renderOptions.parts = .responseBody }
        return ResponseRenderer(options: renderOptions)
    }

    /// libcurl directly: about four times less time per request than URLSession here (Benchmarks/RESULTS.md), header order kept,
    /// and the only way to honour --insecure on Linux.
    private func makeTransport() -> CurlTransport {
        CurlTransport(options: .init(timeout: options.timeout, followRedirects: options.follow, verifyTLS: !options.insecure,
                                     limits: BodyLimits(maximumBodySize: options.maxBodySize.bytes)))
    }
}
