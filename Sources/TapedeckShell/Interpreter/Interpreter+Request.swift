import Foundation
import Tapedeck

extension Interpreter {
    /// Builds, sends and remembers one request; prints the response in the REPL.
    func send(_ command: RequestCommand, at location: SourceLocation) async throws(ShellError) {
        let request = try buildRequest(command, at: location)
        let timeout = try timeout(of: command) ?? options.timeout
        let follow = command.follow || options.followRedirects
        state.lastRequest = request
        state.lastResponse = nil
        state.lastFailure = nil
        state.lastSend = .init(timeout: timeout, followRedirects: follow)
        state.paths.insert(request.url.path)
        for field in request.headers { state.headerNames.insert(field.name) }
        let response: HTTPResponse
        // At the prompt a stream is shown as it arrives (a script waits for the whole response).
        let live = options.echoResponses && command.print == nil ? LiveStream(output: output, colors: options.colors) : nil
        defer { live?.finish() }
        do {
            // A stream flows until it ends or Ctrl-C: the timeout bounds the wait for its head, not its length.
            response = try await ResponseObserver.$current.withValue(live?.observer) {
                try await Exchange.perform(request, through: transport, timeout: timeout, followRedirects: follow,
                                           streaming: { live?.began ?? false })
            }
        } catch let error as HTTPError {
            // One line: the request's own error already showed the whole report.
            let headline = error.failure.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? error.failure
            state.lastFailure = "\(request.method) \(request.urlText) at \(location): " + headline
                + (headline == error.failure ? "" : " (the report is above)")
            if case .cancelled = error { throw .cancelled(at: location) }
            let why = recordingReason.map { " (\($0))" } ?? ""
            throw .transport(error.commandLineDescription + why, at: location)
        } catch is CancellationError {
            state.lastFailure = "\(request.method) \(request.urlText): cancelled"
            throw .cancelled(at: location)
        } catch {
            state.lastFailure = "\(request.method) \(request.urlText): \(error.localizedDescription)"
            throw .transport(error.localizedDescription, at: location)
        }
        countRequest()
        if transport is ReplayTransport {
            // A replayed response was redacted when it was recorded: only the request can
            // teach a secret (a token typed into a header), and reading the body would cost
            // more than the replay itself.
            _ = secrets.redact(request, with: .standard)
        } else {
            _ = secrets.redact(Interaction(request: request, response: response, recordedAt: Date()), with: .standard)
        }
        if keepsExchanges { exchanges.append(ScriptExchange(location: location, request: request, response: response)) }
        state.lastResponse = response
        state.notePaths(in: response, to: request)
        if let log = options.requestLog {
            // A credential in a URL is not printed (the reports redact it too).
            let landed = response.storedURL.flatMap { $0.text == request.urlText ? nil : " at \(Redactor.shown($0.url))" } ?? ""
            log.line("\(location)  \(request.method) \(Redactor.shown(request.url)) → \(Exchange.summary(of: response))\(landed)")
        }
        guard options.echoResponses else { return warnAgainstOpenAPI(request, response) }
        defer { warnAgainstOpenAPI(request, response) }
        if let live, live.began {
            output.line(live.summary(of: response))
            return
        }
        if let parts = command.print {
            let renderer = ResponseRenderer(options: RenderOptions(colors: options.colors, parts: parts))
            let requestText = renderer.render(request)
            if !requestText.isEmpty { output.line(requestText) }
            let responseText = renderer.render(response)
            if !responseText.isEmpty { output.line(responseText) }
        } else {
            output.line(render(response, options.colors))
        }
        guard !follow else { return }
        do {
            if let next = try RedirectFollower.nextRequest(after: response, for: request) {
                output.line("(redirect to \(next.url.absoluteString) not followed; add --follow to the request to follow it)")
            }
        } catch {
            output.line("(redirect not followed: \(TerminalText.visible(error.failure, keepLineBreaks: false)))")
        }
    }

    /// The request a command describes: persistent headers and query items applied, HTTPie's
    /// default headers (`User-Agent: tapedeck/…`, `Accept`) added, exactly what is sent.
    ///
    /// Header precedence: a request item beats a persistent `header`, which beats what the
    /// body implies (`Content-Type`, JSON's `Accept`), which beats the defaults.
    func buildRequest(_ command: RequestCommand, at location: SourceLocation) throws(ShellError) -> HTTPRequest {
        let method: HTTPMethod
        do {
            method = try HTTPMethod(validating: command.method)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: location)
        }
        let target = try command.target.map(expand)
        let url: URL
        let path = state.resolve(target: target)
        if state.base == nil, !path.containsBytes("://") {
            let fix = URLComposer.relativeWithoutBase + "; run 'base http://host:port' first or give a full URL"
            throw .invalidRequest(HTTPError.invalidURL(input: path, reason: fix).localizedDescription, at: command.target?.location ?? location)
        }
        do {
            url = try URLComposer.compose(base: state.base, path: path, query: state.query)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.target?.location ?? location)
        }
        var arguments: [String] = []
        for item in command.items { arguments.append(try expand(item)) }
        var items: RequestItems
        do {
            // The folder (a URL operation) is named only when there are items that may read files.
            items = arguments.isEmpty ? RequestItems() : try RequestItems.parse(arguments, baseDirectory: baseDirectory)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.items.first?.location ?? location)
        }
        switch command.body {
        case .heredoc(let word), .raw(let word):
            items.rawBody = Data(try expand(word).utf8)
        case .file(let word):
            let path = resolvePath(try expand(word)).path
            do {
                items.rawBody = try FileInput.read(path)
            } catch {
                throw .invalidRequest(error.localizedDescription, at: word.location)
            }
            let type = MediaType.forFileExtension((path as NSString).pathExtension)
            // An unknown extension says nothing; the body's content decides then.
            if type != "application/octet-stream" || (path as NSString).pathExtension == "bin" { items.rawBodyContentType = type }
        case nil:
            break
        }
        var headers = state.headers
        headers.merge(items.headers)
        items.headers = headers
        let mode: BodyMode = command.multipart ? .multipart : (command.form ? .form : .json)
        var request: HTTPRequest
        do {
            request = try items.request(method: method, url: url, mode: mode)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.items.first?.location ?? location)
        }
        request.addDefaultHeaders()
        return request
    }

    /// The command's `--timeout` in seconds, if it has one.
    private func timeout(of command: RequestCommand) throws(ShellError) -> TimeInterval? {
        guard let word = command.timeout else { return nil }
        let text = try expand(word)
        guard let seconds = RequestParser.seconds(text) else {
            throw .invalidRequest("--timeout '\(text)' is not a number of seconds; write e.g. --timeout 5 or --timeout 0.5", at: word.location)
        }
        return seconds
    }
}
