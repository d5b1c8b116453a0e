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
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: url) else {
            throw DownloadError.cannotCreate(path: path)
        }
        defer { try? handle.close() }
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
        let response = try await transport.send(request, streamingTo: sink)
        Console.flush()
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

    var errorDescription: String? {
        switch self {
        case .cannotCreate(let path):
            "cannot create the download file '\(path)'; check that its folder exists and is writable"
        }
    }
}
