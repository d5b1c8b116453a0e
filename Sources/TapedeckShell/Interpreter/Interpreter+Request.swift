import Foundation
import Tapedeck

extension Interpreter {
    /// Builds, sends and remembers one request; prints the response in the REPL.
    func send(_ command: RequestCommand, at location: SourceLocation) async throws(ShellError) {
        let request = try buildRequest(command, at: location)
        state.lastRequest = request
        state.paths.insert(request.url.path)
        for field in request.headers { state.headerNames.insert(field.name) }
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch let error as HTTPError {
            if case .cancelled = error { throw .cancelled(at: location) }
            throw .transport(error.localizedDescription, at: location)
        } catch is CancellationError {
            throw .cancelled(at: location)
        } catch {
            throw .transport(error.localizedDescription, at: location)
        }
        countRequest()
        state.lastResponse = response
        state.notePaths(in: response)
        if options.echoResponses { output.line(render(response, options.colors)) }
    }

    /// The request a command describes, with persistent headers and query items applied.
    func buildRequest(_ command: RequestCommand, at location: SourceLocation) throws(ShellError) -> HTTPRequest {
        let method: HTTPMethod
        do {
            method = try HTTPMethod(validating: command.method)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: location)
        }
        let target = try command.target.map(expand)
        let url: URL
        do {
            url = try URLComposer.compose(base: state.base, path: state.resolve(target: target), query: state.query)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.target?.location ?? location)
        }
        var arguments: [String] = []
        for item in command.items { arguments.append(try expand(item)) }
        var items: RequestItems
        do {
            items = try RequestItems.parse(arguments, baseDirectory: baseDirectory)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.items.first?.location ?? location)
        }
        var contentType: String?
        switch command.body {
        case .heredoc(let word), .raw(let word):
            let text = try expand(word)
            items.rawBody = Data(text.utf8)
            contentType = Self.guessContentType(text)
        case .file(let word):
            let path = resolvePath(try expand(word)).path
            do {
                items.rawBody = try FileInput.read(path)
            } catch {
                throw .invalidRequest(error.localizedDescription, at: word.location)
            }
            contentType = MediaType.forFileExtension((path as NSString).pathExtension)
        case nil:
            break
        }
        let mode: BodyMode = command.multipart ? .multipart : (command.form ? .form : .json)
        var request: HTTPRequest
        do {
            request = try items.request(method: method, url: url, mode: mode)
        } catch {
            throw .invalidRequest(error.localizedDescription, at: command.items.first?.location ?? location)
        }
        var headers = state.headers
        headers.merge(request.headers)
        if let contentType, request.body != nil, !headers.contains("Content-Type") {
            headers.add(name: "Content-Type", value: contentType)
        }
        if let body = request.body, !headers.contains("Content-Length") {
            headers.add(name: "Content-Length", value: String(body.count))
        }
        request.headers = headers
        return request
    }

    /// `application/json` for text that parses as JSON, else plain text.
    static func guessContentType(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let first = trimmed.first, first == "{" || first == "[", (try? JSONParser.parse(trimmed)) != nil {
            return "application/json"
        }
        return "text/plain; charset=utf-8"
    }
}
