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
            state.withLock { $0.began = true }
            LiveStream.active.store(true, ordering: .relaxed)
            let renderer = ResponseRenderer(options: RenderOptions(colors: colors, parts: .responseHeaders))
            output.line(renderer.render(head))
            output.line("")
            return true
        }, chunk: { [self] chunk in
            if InterruptSignal.consume() {
                state.withLock { $0.stopped = true }
                return false
            }
            state.withLock { $0.chunks += 1 }
            output.control(Self.shown(chunk.data))
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
        return "(stream \(how): \(count) chunk\(count == 1 ? "" : "s"), \(response.body.count) bytes in \(Int((response.duration * 1000).rounded())) ms)"
    }

    /// Ends the stream's hold on Ctrl-C.
    func finish() { LiveStream.active.store(false, ordering: .relaxed) }

    /// Text as it is, control characters made visible; bytes that are not UTF-8 as a count.
    static func shown(_ data: Data) -> String {
        guard let text = String(validating: data, as: UTF8.self) else { return "[\(data.count) bytes of binary data]\n" }
        return TerminalText.visible(text, keepLineBreaks: true)
    }

    /// Whether a stream is being shown: Ctrl-C then ends the stream rather than cancelling the command.
    static let active = Atomic<Bool>(false)
}
