import Foundation
import Synchronization
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process-wide routing table that gives every Tapedeck `URLSession` its own transport.
///
/// Each session made by ``Foundation/URLSession/replaying(_:allowRepeats:matcher:followRedirects:configuration:)``,
/// `.recording(to:…)` or `.stubbing { }` gets a route number and a URLProtocol class of its own
/// (`RoutedURLProtocol<Slot>`, a distinct generic specialisation per number) in its
/// `configuration.protocolClasses`. The protocol looks its transport up here by that number,
/// so parallel tests with different cassettes never see each other's requests, and nothing
/// is registered globally (`URLProtocol.registerClass` does nothing on Linux). A routing header
/// is not used because corelibs applies `httpAdditionalHeaders` after protocols see the request.
///
/// The table is guarded by a `Mutex`; entries live until ``remove(_:)`` (``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)`` removes its own).
public enum TapedeckRoutes {
    /// What answers a route's requests.
    enum Handler: Sendable {
        /// Served synchronously from a cassette.
        case replay(ReplayTransport)
        /// Sent through any transport from a background queue.
        case transport(any HTTPTransport)
    }

    private struct Table {
        var next = 1
        var handlers: [Int: Handler] = [:]
    }

    private static let table = Mutex(Table())

    /// Registers `handler` and returns the protocol class to put in `protocolClasses`.
    static func register(_ handler: Handler) -> AnyClass {
        let id = table.withLock { table in
            defer { table.next += 1 }
            table.handlers[table.next] = handler
            return table.next
        }
        return RouteSlots.protocolClass(for: id)
    }

    static func handler(for id: Int) -> Handler? {
        table.withLock { $0.handlers[id] }
    }

    /// A session configuration whose only custom protocol routes to `handler`.
    static func configuration(_ base: URLSessionConfiguration, routingTo handler: Handler) -> URLSessionConfiguration {
        let configuration = base
        configuration.protocolClasses = [register(handler)] + (configuration.protocolClasses ?? [])
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return configuration
    }

    /// Forgets the route of a session made by TapedeckTesting (its requests then fail); other sessions are untouched.
    public static func remove(_ session: URLSession) {
        guard let id = route(of: session) else { return }
        _ = table.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// The number of live routes (for tests of the table itself).
    public static var count: Int { table.withLock { $0.handlers.count } }

    /// The route number of a session made by TapedeckTesting.
    static func route(of session: URLSession) -> Int? {
        for protocolClass in session.configuration.protocolClasses ?? [] {
            if let routed = protocolClass as? any RoutedProtocol.Type { return routed.routeID }
        }
        return nil
    }

    /// The transport behind a session, if it has one (replay counts, recorder flush).
    static func transport(of session: URLSession) -> Handler? {
        route(of: session).flatMap(handler(for:))
    }
}

/// Route numbers as types: `Bit1<Bit0<Bit1<End>>>` is route 5. Each number gives a distinct
/// `RoutedURLProtocol<S>` class, which is how a protocol instance knows its session.
protocol RouteSlot: SendableMetatype { static var id: Int { get } }
enum End: RouteSlot { static var id: Int { 0 } }
enum Bit0<Rest: RouteSlot>: RouteSlot { static var id: Int { Rest.id * 2 } }
enum Bit1<Rest: RouteSlot>: RouteSlot { static var id: Int { Rest.id * 2 + 1 } }

enum RouteSlots {
    static func slot(for id: Int) -> any RouteSlot.Type {
        guard id > 0 else { return End.self }
        func wrap<Rest: RouteSlot>(_ rest: Rest.Type) -> any RouteSlot.Type {
            id % 2 == 0 ? Bit0<Rest>.self : Bit1<Rest>.self
        }
        return wrap(slot(for: id / 2))
    }

    static func protocolClass(for id: Int) -> AnyClass {
        func make<S: RouteSlot>(_ slot: S.Type) -> AnyClass { RoutedURLProtocol<S>.self }
        return make(slot(for: id))
    }
}
