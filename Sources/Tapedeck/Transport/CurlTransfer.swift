import CCurl
import Foundation
import Synchronization

/// The state of one libcurl transfer: what callbacks fill in, and the mapping of the result
/// to ``HTTPResponse`` or ``HTTPError``.
final class CurlTransfer: Sendable {
    let request: HTTPRequest
    let options: CurlTransport.Options
    private let cancelled = Atomic<Bool>(false)
    private let received = Mutex(Received())

    struct Received {
        var body = Data()
        var statusLine = ""
        var headers: [HTTPHeader] = []
    }

    init(request: HTTPRequest, options: CurlTransport.Options) {
        self.request = request
        self.options = options
    }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func appendBody(_ bytes: UnsafeRawBufferPointer) {
        received.withLock { $0.body.append(contentsOf: bytes) }
    }

    /// A header line; a status line starts a new block (each redirect hop sends one).
    func appendHeaderLine(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        received.withLock { state in
            if trimmed.hasPrefix("HTTP/") {
                state.statusLine = trimmed
                state.headers = []
            } else if let colon = trimmed.firstIndex(of: ":"), !trimmed.isEmpty {
                let name = String(trimmed[..<colon])
                let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                state.headers.append(HTTPHeader(name: name, value: value))
            }
        }
    }

    /// Runs the transfer synchronously on `handle` (call it off the cooperative pool).
    func perform(on handle: CurlHandle) -> Result<HTTPResponse, HTTPError> {
        let easy = handle.pointer
        curl_easy_reset(easy)
        var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { curl_slist_free_all(headerList) }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let clock = ContinuousClock()
        let start = clock.now

        let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errors in
            request.url.absoluteString.withCString { url in
                _ = tapedeck_curl_setopt_string(easy, CURLOPT_URL, url)
                _ = tapedeck_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errors.baseAddress)
                configure(easy, context: context)
                for field in request.headers {
                    headerList = curl_slist_append(headerList, "\(field.name): \(field.value)")
                }
                // curl would otherwise add `Expect: 100-continue` to large bodies.
                if !request.headers.contains("Expect") { headerList = curl_slist_append(headerList, "Expect:") }
                _ = tapedeck_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)
                return withBody(easy) { curl_easy_perform(easy) }
            }
        }
        let elapsed = clock.now - start
        let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard code == CURLE_OK else { return .failure(error(for: code, detail: detail)) }
        return .success(response(easy, duration: elapsed))
    }

    /// libcurl's `CURLOPT_TIMEOUT_MS` for `seconds`: at least 1 ms, and 0 (no limit) for a
    /// timeout that is not a positive finite number or is too large to count in milliseconds.
    static func timeoutMilliseconds(_ seconds: TimeInterval) -> Int {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        let milliseconds = seconds * 1000
        guard milliseconds < Double(Int32.max) else { return 0 }
        return max(1, Int(milliseconds))
    }

    private func configure(_ easy: UnsafeMutableRawPointer, context: UnsafeMutableRawPointer) {
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, CurlTransfer.timeoutMilliseconds(options.timeout))
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, options.followRedirects ? 1 : 0)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 30)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, options.verifyTLS ? 1 : 0)
        _ = tapedeck_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, options.verifyTLS ? 2 : 0)
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
            if request.method == .post { _ = tapedeck_curl_setopt_string(easy, CURLOPT_POSTFIELDS, "") }
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
        // "HTTP/1.1 418 I'M A TEAPOT" → the phrase after the code; HTTP/2 sends none.
        let parts = state.statusLine.split(separator: " ", maxSplits: 2)
        let reason = parts.count > 2 ? String(parts[2]) : nil
        return HTTPResponse(status: status, reason: reason, headers: HTTPHeaders(state.headers), body: state.body,
                            url: finalURL, duration: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    private func error(for code: CURLcode, detail: String) -> HTTPError {
        let url = request.url.absoluteString
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
        case CURLE_TOO_MANY_REDIRECTS:
            return .transport(url: url, detail: "\(message); the server redirects in a loop")
        default: return .transport(url: url, detail: message)
        }
    }
}

private func transfer(_ context: UnsafeMutableRawPointer?) -> CurlTransfer? {
    context.map { Unmanaged<CurlTransfer>.fromOpaque($0).takeUnretainedValue() }
}

private let curlWriteBody: curl_write_callback = { data, size, count, context in
    guard let data, let transfer = transfer(context) else { return 0 }
    transfer.appendBody(UnsafeRawBufferPointer(start: data, count: size * count))
    return size * count
}

private let curlWriteHeader: curl_write_callback = { data, size, count, context in
    guard let data, let transfer = transfer(context) else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    transfer.appendHeaderLine(String(decoding: bytes, as: UTF8.self))
    return size * count
}

private let curlProgress: curl_xferinfo_callback = { context, _, _, _, _ in
    (transfer(context)?.isCancelled ?? false) ? 1 : 0
}
