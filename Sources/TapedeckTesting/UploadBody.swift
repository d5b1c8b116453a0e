import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a `URLSession.upload(for:from:)` / `upload(for:fromFile:)` call, which the
/// Foundation on Linux keeps in the task and never puts on the request a URLProtocol sees
/// (`httpBody` and `httpBodyStream` are both nil there).
///
/// The task's stored body is read by reflection: `Data` and file uploads come back whole. When
/// it cannot be read (a streamed upload whose stream the delegate supplies, or a Foundation
/// that stores it differently), the call fails with ``TapedeckTestingError/uploadBodyHidden(url:method:)``
/// instead of recording or matching an empty body in its place.
enum UploadBody {
    /// The body of `task`'s upload; nil when `task` is not an upload task.
    static func read(from task: URLSessionTask?, request: URLRequest) -> Result<Data, TapedeckTestingError>? {
        guard let task, task is URLSessionUploadTask else { return nil }
        let hidden = TapedeckTestingError.uploadBodyHidden(url: request.url?.absoluteString ?? "?", method: request.httpMethod ?? "POST")
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let stored = current.children.first(where: { $0.label == "knownBody" })?.value {
                return body(in: stored).map(Result.success) ?? .failure(hidden)
            }
            mirror = current.superclassMirror
        }
        return .failure(hidden)
    }

    /// `Optional<_Body>.some(.data(DispatchData))`, `.file(URL)` or `.stream(InputStream)`; nil for
    /// anything else (`.none` is a streamed upload whose body the delegate supplies later).
    private static func body(in stored: Any) -> Data? {
        let optional = Mirror(reflecting: stored)
        guard optional.displayStyle == .optional else { return nil }
        guard let value = optional.children.first?.value else { return nil }
        let body = Mirror(reflecting: value)
        guard body.displayStyle == .enum else { return nil }
        guard let payload = body.children.first else { return nil }
        switch payload.label {
        case "data":
            if let data = payload.value as? DispatchData { return Data(data) }
            return payload.value as? Data
        case "file":
            return (payload.value as? URL).flatMap { try? Data(contentsOf: $0) }
        case "stream":
            return (payload.value as? InputStream).map(HTTPRequest.body(reading:))
        default:
            return nil
        }
    }
}
