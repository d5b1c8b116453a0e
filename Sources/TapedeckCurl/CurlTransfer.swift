import CCurl
import Tapedeck
import Foundation
import Synchronization

/// The state of one libcurl transfer: what callbacks fill in, and the mapping of the result
/// to ``HTTPResponse`` or ``HTTPError``.
final class CurlTransfer: Sendable {
    let request: HTTPRequest
    let options: CurlTransport.Options
    let sink: CurlBodySink?
    /// Told about a streamed response as it arrives (``ResponseObserver``), when one watches.
    let observer: ResponseObserver?
    private let cancelled = Atomic<Bool>(false)
    /// The easy handle during `perform`, as an address, so callbacks can ask libcurl for counters.
    private let easyAddress = Atomic<Int>(0)
    private let received = Mutex(Received())

    struct Received {
        var body = Data()
        var statusLine = ""
        var headers: [HTTPHeader] = []
        /// Whether the blank line that ends the final header block has arrived.
        var headComplete = false
        /// Whether the body goes to the sink rather than into `body`.
        var streaming = false
        /// Decoded body bytes seen so far, streamed or kept.
        var bodyBytes = 0
        /// Why the transfer was stopped from a callback, if it was.
        var stop: HTTPError?
        /// When the final head arrived, for a body kept as ``BodyChunk``s (a stream); nil otherwise.
        var headAt: ContinuousClock.Instant?
        /// The chunks of a streamed body, as they arrived.
        var chunks: [BodyChunk] = []
        /// Whether the observer is told about each chunk.
        var observed = false
        /// Whether the observer stopped the transfer (its reader left): what arrived is the response.
        var endedByReader = false
    }

    init(request: HTTPRequest, options: CurlTransport.Options, sink: CurlBodySink? = nil, observer: ResponseObserver? = nil) {
        self.request = request
        self.options = options
        self.sink = sink
        self.observer = observer
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Whether the transfer should end now: cancelled, or an observed stream its observer stops
    /// (what arrived is then the response).
    var shouldAbort: Bool {
        if isCancelled { return true }
        guard let observer, received.withLock({ $0.observed }), observer.stop() else { return false }
        received.withLock { $0.endedByReader = true }
        return true
    }

    /// Body bytes received so far before content decoding (libcurl counts them before it
    /// decodes and hands over a chunk).
    var wireBytes: Int {
        guard let easy = UnsafeMutableRawPointer(bitPattern: easyAddress.load(ordering: .relaxed)) else { return 0 }
        var count: curl_off_t = 0
        _ = tapedeck_curl_getinfo_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &count)
        return Int(count)
    }

    /// Keeps or streams a chunk of the (decoded) body; false stops the transfer, with the reason
    /// in `stop`. A compressed body may expand only as far as ``BodyLimits`` allows for the bytes
    /// that came over the wire so far.
    func appendBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let rawBytes = wireBytes
        let url = request.urlText
        let limits = options.limits
        let (streaming, failure): (Bool, HTTPError?) = received.withLock { state in
            state.bodyBytes += bytes.count
            let encoded = HTTPHeaders(state.headers).values(for: "Content-Encoding").contains { !$0.lowercased().contains("identity") }
            if encoded, state.bodyBytes > limits.decodedLimit(compressedSize: max(rawBytes, 1)) {
                state.stop = .decompressionLimit(url: url, compressed: rawBytes, limit: limits.decodedLimit(compressedSize: max(rawBytes, 1)))
                return (state.streaming, state.stop)
            }
            guard !state.streaming else { return (true, nil) }
            guard state.bodyBytes <= limits.maximumBodySize else {
                state.stop = .bodyTooLarge(url: url, limit: limits.maximumBodySize)
                return (false, state.stop)
            }
            if let headAt = state.headAt {
                // A stream's body is its chunks joined, at the end (one copy while it flows).
                let offset = ContinuousClock.now - headAt
                state.chunks.append(BodyChunk(offset: Double(offset.components.seconds) + Double(offset.components.attoseconds) / 1e18,
                                              data: Data(bytes)))
            } else {
                state.body.append(contentsOf: bytes)
            }
            return (false, nil)
        }
        if failure != nil { return false }
        if let observer, let chunk = received.withLock({ $0.observed ? $0.chunks.last : nil }), !observer.chunk(chunk) {
            received.withLock { $0.endedByReader = true }
            return false
        }
        guard streaming, let sink else { return true }
        do {
            try sink.write(Data(bytes))
            return true
        } catch {
            received.withLock { $0.stop = .transport(url: url, detail: "cannot write the body: \(error.localizedDescription)") }
            return false
        }
    }

    /// A header line; a status line starts a new block (each redirect hop and each 1xx sends one),
    /// and the blank line after a final block hands the head to the sink.
    func appendHeaderLine(_ line: String) {
        let trimmed = line.trimmingHTTPSpace()
        let head: HTTPResponse? = received.withLock { state in
            if trimmed.hasPrefix("HTTP/") {
                state.statusLine = trimmed
                state.headers = []
                state.headComplete = false
            } else if trimmed.isEmpty {
                let (status, reason) = CurlTransfer.statusAndReason(in: state.statusLine)
                guard status >= 200, !state.headComplete else { return nil }
                state.headComplete = true
                return HTTPResponse(status: status, reason: reason,
                                    headers: HTTPHeaders(state.headers), body: Data(), url: request.url)
            } else if let colon = trimmed.utf8.firstIndex(of: UInt8(ascii: ":")) {
                // Read on the bytes: a search by `Character` cost thousands of instructions a line.
                let name = String(trimmed[..<colon])
                let value = trimmed[trimmed.utf8.index(after: colon)...].trimmingHTTPSpace()
                state.headers.append(HTTPHeader(name: name, value: value))
            }
            return nil
        }
        if let head, let sink, sink.accept(head) {
            received.withLock { $0.streaming = true }
        } else if let head, head.isStream, request.method != .head {
            // A stream keeps its chunks and their times; an observer sees each as it comes.
            let observed = observer?.head(head) ?? false
            received.withLock {
                $0.headAt = .now
                $0.observed = observed
            }
        }
    }

    /// "HTTP/1.1 418 I'M A TEAPOT" → the phrase after the code; HTTP/2 sends none.
    static func reason(in statusLine: String) -> String? {
        statusAndReason(in: statusLine).reason
    }

    /// "HTTP/1.1 418 I'M A TEAPOT" → 418 and the phrase after the code (nil when none is sent,
    /// as in HTTP/2); 0 when the line has no code. Read on the line's bytes, split at single
    /// spaces as the line's words.
    static func statusAndReason(in statusLine: String) -> (status: Int, reason: String?) {
        let bytes = statusLine.utf8
        let words = bytes.split(separator: UInt8(ascii: " "), maxSplits: 2)
        let status = words.count > 1 ? Int(Substring(words[1])) ?? 0 : 0
        return (status, words.count > 2 ? String(Substring(words[2])) : nil)
    }

    /// Runs the transfer synchronously on `handle` (call it off the cooperative pool).
    func perform(on handle: CurlHandle) -> Result<HTTPResponse, HTTPError> {
        let easy = handle.pointer
        curl_easy_reset(easy)
        easyAddress.store(Int(bitPattern: easy), ordering: .relaxed)
        defer { easyAddress.store(0, ordering: .relaxed) }
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let clock = ContinuousClock()
        let start = clock.now

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            request.urlText.withCString { url in
                _ = tapedeck_curl_setopt_string(easy, CURLOPT_URL, url)
                _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errors.baseAddress)
                configure(easy, context: context)
                for field in request.headers {
                    // `Name:` with nothing after it tells libcurl to remove the header; `Name;`
                    // is how it sends one empty.
                    let line = field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)"
                    headerList = curl_slist_append(headerList, line)
                }
                // curl would otherwise add `Expect: 100-continue` to large bodies.
                if !request.headers.contains("Expect") { headerList = curl_slist_append(headerList, "Expect:") }
                // Nor does a POST with no body say it sends a form (curl adds that type to every POST).
                if request.method == .post, request.body == nil, !request.headers.contains("Content-Type") {
                    headerList = curl_slist_append(headerList, "Content-Type:")
                }
                _ = tapedeck_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
                return withBody(easy) { performWatched(easy, multi: handle.multi) }
            }
        }
        let elapsed = clock.now - start
        let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if let stop = received.withLock({ $0.stop }) { return .failure(stop) }
        if received.withLock({ $0.endedByReader }) { return .success(response(easy, duration: elapsed)) }
        guard code == CURLE_OK else { return .failure(error(for: code, detail: detail)) }
        return .success(response(easy, duration: elapsed))
    }

    /// How often a transfer is looked at while nothing arrives: how late a cancel (Ctrl-C) or
    /// a stream's silence limit may take effect.
    static let watchInterval: Int32 = 20

    /// `curl_easy_perform`, driven through a multi handle so that the transfer is looked at
    /// every ``watchInterval`` milliseconds whatever flows: libcurl calls its progress callback
    /// only about once a second while nothing arrives, so a cancel and a stream's silence limit
    /// (``CurlTransport/Options/timeout`` for an observed transfer) overshot by up to a second.
    private func performWatched(_ easy: UnsafeMutableRawPointer, multi: UnsafeMutableRawPointer?) -> CURLcode {
        guard let multi, curl_multi_add_handle(multi, easy) == CURLM_OK else { return curl_easy_perform(easy) }
        defer { curl_multi_remove_handle(multi, easy) }
        let silenceLimit = boundsSilence ? CurlTransfer.timeoutMilliseconds(options.timeout) : nil
        let clock = ContinuousClock()
        var lastProgress = clock.now
        var seen: (body: curl_off_t, head: Int, sent: curl_off_t) = (0, 0, 0)
        var running: Int32 = 1
        while true {
            guard curl_multi_perform(multi, &running) == CURLM_OK else { return CURLE_FAILED_INIT }
            if running == 0 { break }
            if shouldAbort { return CURLE_ABORTED_BY_CALLBACK }
            if let silenceLimit, silenceLimit > 0 {
                // Bytes either way are progress: a body being uploaded is not silence.
                var now: (body: curl_off_t, head: Int, sent: curl_off_t) = (0, 0, 0)
                _ = tapedeck_curl_getinfo_offset(easy, CURLINFO_SIZE_DOWNLOAD_T, &now.body)
                _ = tapedeck_curl_getinfo_long(easy, CURLINFO_HEADER_SIZE, &now.head)
                _ = tapedeck_curl_getinfo_offset(easy, CURLINFO_SIZE_UPLOAD_T, &now.sent)
                if now != seen {
                    seen = now
                    lastProgress = clock.now
                } else if clock.now - lastProgress >= .milliseconds(silenceLimit) {
                    return CURLE_OPERATION_TIMEDOUT
                }
            }
            guard curl_multi_poll(multi, nil, 0, CurlTransfer.watchInterval, nil) == CURLM_OK else { return CURLE_FAILED_INIT }
        }
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_OK
    }

    /// libcurl's `CURLOPT_TIMEOUT_MS` for `seconds`: at least 1 ms, and 0 (no limit) for a
    /// timeout that is not a positive finite number or is too large to count in milliseconds.
    static func timeoutMilliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let milliseconds = seconds * 1000
        guard milliseconds < Double(Int32.max) else { return 0 }
        return max(1, Int(milliseconds))
    }

    /// Whether the timeout bounds silence rather than the whole transfer: for a stream an
    /// observer relays, and a body written out as it arrives (`--download`, piped output).
    private var boundsSilence: Bool { observer != nil || sink != nil }

    private func configure(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) {
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        if !boundsSilence {
            _ = tapedeck_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, CurlTransfer.timeoutMilliseconds(options.timeout))
        } else {
            // A relayed stream may flow for as long as both ends keep it open, and a download
            // for as long as it takes: the timeout bounds connecting and any silence (no byte
            // for that long), not the whole transfer, as HTTPie's does.
            // The silence is timed by ``performWatched(_:)``, to the millisecond: libcurl's own
            // low-speed timer counts whole seconds.
            _ = tapedeck_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, CurlTransfer.timeoutMilliseconds(options.timeout))
        }
        // Redirects are followed by the core's one rule (RedirectFollower), never by libcurl,
        // and libcurl speaks nothing but HTTP even if asked.
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0)
        if !options.proxyFromEnvironment {
            // An empty proxy, and no host through one, whatever the environment says.
            _ = tapedeck_curl_setopt_string(easy, CURLOPT_PROXY, "")
            _ = tapedeck_curl_setopt_string(easy, CURLOPT_NOPROXY, "*")
        }
        _ = tapedeck_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        _ = tapedeck_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, options.verifyTLS ? 1 : 0)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, options.verifyTLS ? 2 : 0)
        if let roots = options.trustedRoots {
            _ = roots.withUnsafeBytes { tapedeck_curl_setopt_blob(easy, CURLOPT_CAINFO_BLOB, $0.baseAddress, $0.count) }
        }
        _ = tapedeck_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = tapedeck_curl_setopt_write(easy, CURLOPT_WRITEFUNCTION, curlWriteBody)
        _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = tapedeck_curl_setopt_write(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_NOPROGRESS, 0)
        _ = tapedeck_curl_setopt_xferinfo(easy, curlProgress)
        _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_XFERINFODATA, context)
        switch request.method {
        case .get: _ = tapedeck_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
        case .head: _ = tapedeck_curl_setopt_long(easy, CURLOPT_NOBODY, 1)
        case .post: _ = tapedeck_curl_setopt_long(easy, CURLOPT_POST, 1)
        default: _ = tapedeck_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
    }

    /// Hands the body to curl for the duration of `perform`.
    private func withBody(_ easy: UnsafeMutableRawPointer, _ perform: () -> CURLcode) -> CURLcode {
        guard let body = request.body else {
            // An empty body, copied by curl: a literal passed as POSTFIELDS lives only as long as
            // the call, and curl read past it (a POST sent bytes no one gave it).
            if request.method == .post {
                _ = tapedeck_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
                _ = tapedeck_curl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
            }
            return perform()
        }
        return body.withUnsafeBytes { bytes in
            _ = tapedeck_curl_setopt_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bytes.count))
            _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)))
            if request.method == .get || request.method == .head {
                _ = tapedeck_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
            return perform()
        }
    }

    private func response(_ easy: UnsafeMutableRawPointer, duration: Duration) -> HTTPResponse {
        var status = 0
        _ = tapedeck_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        _ = tapedeck_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        let finalURL = effective.flatMap { URL(string: String(cString: $0)) } ?? request.url
        let state = received.withLock { $0 }
        let reason = CurlTransfer.reason(in: state.statusLine)
        var response = HTTPResponse(status: status, reason: reason, headers: HTTPHeaders(state.headers), body: state.body,
                                    url: finalURL, duration: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        if state.headAt != nil {
            response.body = BodyChunk.joined(state.chunks)
            response.chunks = StreamMedia.keepsChunks(state.chunks, headers: response.headers) ? state.chunks : nil
        }
        return response
    }

    /// Request headers that come to about this many bytes are more than libcurl sends: it
    /// refuses them with "Out of memory" before anything goes out.
    static let requestHeadLimit = 1_000_000

    /// The bytes of the request's target and header lines.
    private var requestHeadBytes: Int {
        request.urlText.utf8.count + request.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
    }

    private func error(for code: CURLcode, detail: String) -> HTTPError {
        let url = request.urlText
        let host = request.url.host ?? "?"
        let port = request.url.port ?? (request.url.scheme == "https" ? 443 : 80)
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        switch code {
        case CURLE_COULDNT_CONNECT: return .cannotConnect(host: host, port: port)
        case CURLE_COULDNT_RESOLVE_HOST: return .hostNotFound(host)
        case CURLE_OPERATION_TIMEDOUT: return .timedOut(url: url, seconds: options.timeout)
        case CURLE_ABORTED_BY_CALLBACK: return .cancelled(url: url)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR,
             CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE:
            return .tlsFailure(host: host, detail: message)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE:
            return .noResponse(url: url, detail: message)
        case CURLE_OUT_OF_MEMORY where received.withLock({ $0.statusLine.isEmpty }) && requestHeadBytes >= CurlTransfer.requestHeadLimit:
            // Nothing came back: it is the request's own head that libcurl could not take.
            let longest = request.headers.max { $0.value.utf8.count < $1.value.utf8.count }
            return .transport(url: url, detail: "the request's headers come to \(ByteCount.describe(requestHeadBytes))"
                + (longest.map { " (\(Excerpt.of($0.name)) alone \(ByteCount.describe($0.value.utf8.count)))" } ?? "")
                + ", more than libcurl sends (about 1 MiB); send large data in the body instead")
        case CURLE_OUT_OF_MEMORY where !received.withLock({ $0.headComplete }):
            // libcurl refuses a header line over 100 KiB (or headers over 300 KiB) with "Out of memory".
            return .headerTooLarge(url: url, detail: "a header line is over libcurl's limit of 100 KiB")
        case CURLE_UNSUPPORTED_PROTOCOL where ["http", "https"].contains(request.url.scheme?.lowercased() ?? ""):
            // libcurl's words for an answer with no status line.
            return .transport(url: url, detail: message.contains("HTTP/0.9")
                ? "the server's answer does not begin with an HTTP status line (it is not HTTP, or HTTP/0.9, which is not accepted)" : message)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .transport(url: url, detail: "\(message); only http and https URLs are sent")
        default: return .transport(url: url, detail: message)
        }
    }
}

private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
    context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

private let curlWriteBody: curl_write_callback = { data, size, count, context in
    guard let data, let transfer = transfer(context) else { return 0 }
    return transfer.appendBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private let curlWriteHeader: curl_write_callback = { data, size, count, context in
    guard let data, let transfer = transfer(context) else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    transfer.appendHeaderLine(String(decoding: bytes, as: UTF8.self))
    return size * count
}

private let curlProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    (transfer(context)?.shouldAbort ?? false) ? 1 : 0
}
