import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of every TapedeckTesting session: the session keeps it alive, so its end
/// (invalidation, or the session being released) frees the session's route and the cassette
/// behind it.
///
/// On Apple platforms a `URLSession` keeps itself and its delegate until it is invalidated, so
/// there a session made and dropped without `finishTasksAndInvalidate()` keeps its route.
final class RouteOwner: NSObject, URLSessionDelegate, @unchecked Sendable {
    let id: Int
    let serial: Int

    init(id: Int, serial: Int) {
        self.id = id
        self.serial = serial
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        TapedeckRoutes.release(id, serial: serial)
    }

    deinit { TapedeckRoutes.release(id, serial: serial) }
}
