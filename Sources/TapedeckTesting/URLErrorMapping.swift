import Foundation
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Transport failures reach `URLSession` callers as the `URLError` a real network gives, so app
/// code's `catch URLError.notConnectedToInternet`-style paths run offline too.
enum URLErrorMapping {
    /// `error` as a `URLError` when it is a transport failure; anything else (a mismatch report) unchanged.
    static func mapped(_ error: any Error, url: URL?) -> any Error {
        if case .recordedFailure(let recorded)? = error as? CassetteError { return mapped(recorded, url: url) }
        guard let http = error as? HTTPError else { return error }
        let code: URLError.Code
        switch http {
        case .cannotConnect: code = .cannotConnectToHost
        case .hostNotFound: code = .cannotFindHost
        case .timedOut: code = .timedOut
        case .noResponse: code = .networkConnectionLost
        case .cancelled: code = .cancelled
        case .tlsFailure: code = .secureConnectionFailed
        default: return error
        }
        var info: [String: Any] = [NSLocalizedDescriptionKey: http.errorDescription ?? "\(http)"]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(code, userInfo: info)
    }
}
