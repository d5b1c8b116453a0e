import Foundation
import Synchronization
import Tapedeck
import TapedeckCurl
import TapedeckShell

/// The one-shot CLI's streamed bodies: piped to standard output byte for byte, or written to a
/// `--download` file, as they arrive, so memory stays bounded whatever the body's size.
enum BodyStream {
    /// Sends `request`; the response's head is rendered as `renderer` says, then its body is
    /// copied to standard output unchanged.
    static func toStandardOutput(_ request: HTTPRequest, through transport: CurlTransport,
                                 renderer: ResponseRenderer) async throws -> HTTPResponse {
        let sink = CurlBodySink(accept: { head in
            Console.write(headText(head, renderer: renderer))
            return true
        }, write: { chunk in try Console.writeChecked(chunk) })
        let response = try await transport.send(request, streamingTo: sink)
        Console.flush()
        return response
    }

    /// Sends `request` and writes the body of the final response to `path` (created or
    /// replaced); the head prints as `renderer` says and a note on standard error says where
    /// the body went.
    static func download(_ request: HTTPRequest, through transport: CurlTransport, to path: String,
                         renderer: ResponseRenderer) async throws -> HTTPResponse {
        // Written beside the file and moved over it once the answer is a success: an error
        // page never takes the file's place, as HTTPie's --download keeps none.
        let url = URL(fileURLWithPath: path)
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).part")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: partial) else {
            throw DownloadError.cannotCreate(path: path)
        }
        let written = Atomic<Int>(0)
        var options = renderer.options
        options.parts.remove(.responseBody)
        let headOnly = ResponseRenderer(options: options)
        let sink = CurlBodySink(accept: { head in
            Console.write(headText(head, renderer: headOnly))
            return true
        }, write: { chunk in
            try handle.write(contentsOf: chunk)
            written.add(chunk.count, ordering: .relaxed)
        })
        let response: HTTPResponse
        do {
            response = try await transport.send(request, streamingTo: sink)
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        Console.flush()
        guard response.status < 400 else {
            try? FileManager.default.removeItem(at: partial)
            throw DownloadError.errorStatus(status: response.status, reason: response.reason, path: path)
        }
        guard rename(partial.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw DownloadError.cannotCreate(path: path)
        }
        Console.note("saved \(ResponseRenderer.byteCount(written.load(ordering: .relaxed))) to \(path)")
        return response
    }

    /// The status line and headers, when the renderer prints them, and the blank line that
    /// separates them from a body.
    private static func headText(_ head: HTTPResponse, renderer: ResponseRenderer) -> String {
        guard renderer.options.parts.contains(.responseHeaders) else { return "" }
        var options = renderer.options
        options.showTiming = false
        let plain = ResponseRenderer(options: options)
        let separator = renderer.options.parts.contains(.responseBody) ? "\n" : ""
        return plain.statusLine(head) + "\n" + plain.headerLines(head.headers) + separator
    }
}

/// Why a `--download` file could not be written.
enum DownloadError: Error, LocalizedError {
    case cannotCreate(path: String)
    /// The answer is an error (4xx, 5xx): its page is not the file asked for.
    case errorStatus(status: Int, reason: String, path: String)

    var errorDescription: String? {
        switch self {
        case .cannotCreate(let path):
            "cannot create the download file '\(path)'; check that its folder exists and is writable"
        case .errorStatus(let status, let reason, let path):
            "HTTP \(status) \(reason): nothing was saved to '\(path)' (an error page is not the file); see it with tapedeck GET without --download"
        }
    }
}
