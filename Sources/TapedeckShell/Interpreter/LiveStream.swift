import Foundation
import Synchronization
import Tapedeck

/// A streamed response shown at the prompt as it arrives: the head when it comes, then each
/// chunk as it is received (an event, a JSON line), so `get /events` reads like `curl -N`.
/// Ctrl-C (``InterruptSignal``) ends the stream there: the response is what arrived, and a
/// recording session records it; the REPL keeps running.
final class LiveStream: Sendable {
    private let output: ShellOutput
    private let colors: Bool
    private let state = Mutex<(began: Bool, chunks: Int, stopped: Bool)>((false, 0, false))

    init(output: ShellOutput, colors: Bool) {
        self.output = output
        self.colors = colors
    }

    /// Whether a streamed head arrived, so the body was shown as it came.
    var began: Bool { state.withLock { $0.began } }
    /// Whether Ctrl-C ended the stream.
    var stopped: Bool { state.withLock { $0.stopped } }

    /// The observer to send under.
    var observer: ResponseObserver {
        ResponseObserver(head: { [self] head in
            // A document that happens to arrive chunked (JSON, HTML, XML) is shown whole, pretty, as before.
            guard LiveStream.showsLive(head.headers) else { return false }
            state.withLock { $0.began = true }
            LiveStream.active.store(true, ordering: .relaxed)
            // The time and size are not known yet: the summary after the stream gives them.
            var options = RenderOptions(colors: colors, parts: .responseHeaders)
            options.showTiming = false
            output.line(ResponseRenderer(options: options).render(head))
            output.line("")
            return true
        }, chunk: { [self] chunk in
            // A chunk that arrives with Ctrl-C pending is shown too: it is in the response and the recording.
            state.withLock { $0.chunks += 1 }
            output.control(Self.shown(chunk.data))
            if InterruptSignal.consume() {
                state.withLock { $0.stopped = true }
                return false
            }
            return true
        }, stop: { [self] in
            guard InterruptSignal.consume() else { return false }
            state.withLock { $0.stopped = true }
            return true
        })
    }

    /// The line after the stream: how much came, and how it ended.
    func summary(of response: HTTPResponse) -> String {
        let count = state.withLock { $0.chunks }
        let how = stopped ? "stopped with Ctrl-C" : "ended"
        // After Ctrl-C the terminal has echoed ^C where the cursor was: the summary starts on a line of its own.
        return (stopped ? "\n" : "") + "(stream \(how): \(count) chunk\(count == 1 ? "" : "s"), \(response.body.count) bytes in \(Int((response.duration * 1000).rounded())) ms)"
    }

    /// Ends the stream's hold on Ctrl-C.
    func finish() { LiveStream.active.store(false, ordering: .relaxed) }

    /// Whether a response with `headers` is shown as it arrives: a stream, unless its type is a
    /// whole document (JSON, HTML, XML) that was merely sent chunked.
    static func showsLive(_ headers: HTTPHeaders) -> Bool {
        guard let type = headers["Content-Type"] else { return true }
        let essence = MediaType.essence(type)
        return !(MediaType.isJSON(type) || essence == "text/html" || essence.hasSuffix("xml"))
    }

    /// Text as it is, control characters made visible; bytes that are not UTF-8 as a count.
    static func shown(_ data: Data) -> String {
        guard let text = String(validating: data, as: UTF8.self) else { return "[\(data.count) bytes of binary data]\n" }
        return TerminalText.visible(text, keepLineBreaks: true)
    }

    /// Whether a stream is being shown: Ctrl-C then ends the stream rather than cancelling the command.
    static let active = Atomic<Bool>(false)
}
