import Foundation
import Synchronization
import Tapedeck
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The process-wide routing table that gives every Tapedeck `URLSession` its own transport.
///
/// Each session made by ``Foundation/URLSession/replaying(_:allowRepeats:matcher:followRedirects:origin:configuration:)``,
/// `.recording(to:…)` or `.stubbing { }` gets a route number and a URLProtocol class of its own
/// (`RoutedURLProtocol<Slot>`, a distinct generic specialisation per number) in its
/// `configuration.protocolClasses`. The protocol looks its transport up here by that number,
/// so parallel tests with different cassettes never see each other's requests, and nothing
/// is registered globally (`URLProtocol.registerClass` does nothing on Linux). A routing header
/// is not used because corelibs applies `httpAdditionalHeaders` after protocols see the request.
///
/// A route lives as long as its session: the session's delegate (a ``RouteOwner``) removes it
/// when the session is invalidated or released, so the cassette it holds is freed with the
/// session and its number is reused. ``remove(_:)`` drops the transport earlier (the end of
/// ``withCassette(_:mode:matcher:allowRepeats:requireAllPlayed:redactor:origin:file:_:)``);
/// the number stays taken until the session goes, so a stray request fails instead of reaching
/// a later session. The table is guarded by a `Mutex`.
enum TapedeckRoutes {
    /// What answers a route's requests.
    enum Handler: Sendable {
        /// Served synchronously from a cassette.
        case replay(ReplayTransport)
        /// Sent through any transport from a background queue.
        case transport(any HTTPTransport)

        /// The transport, when this handler sends through one.
        var transport: (any HTTPTransport)? {
            if case .transport(let transport) = self { return transport }
            return nil
        }
    }

    /// One session's entry: its transport (nil once removed), what it was sent, and its response gate.
    struct Route: Sendable {
        var handler: Handler?
        let log = SentRequestLog()
        let gate = ResponseGate()
        /// Tells this entry from a later one that reuses the number.
        let serial: Int
    }

    private struct Table {
        var routes: [Int: Route] = [:]
        /// Numbers whose sessions are gone, reused before new ones so protocol classes stay few.
        var free: [Int] = []
        var highest = 0
        var serial = 0
    }

    private static let table = Mutex(Table())

    /// Registers `handler` and returns the number of its new route and the entry's serial.
    private static func register(_ handler: Handler) -> (id: Int, serial: Int) {
        table.withLock { table in
            let id: Int
            if let reused = table.free.popLast() {
                id = reused
            } else {
                table.highest += 1
                id = table.highest
            }
            table.serial += 1
            table.routes[id] = Route(handler: handler, serial: table.serial)
            return (id, table.serial)
        }
    }

    static func route(for id: Int) -> Route? {
        table.withLock { $0.routes[id] }
    }

    /// A session whose only custom protocol routes to `handler`; the route goes with the session.
    static func session(_ base: URLSessionConfiguration, routingTo handler: Handler) -> URLSession {
        let (id, serial) = register(handler)
        let configuration = base
        configuration.protocolClasses = [RouteSlots.protocolClass(for: id)] + (configuration.protocolClasses ?? [])
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return URLSession(configuration: configuration, delegate: RouteOwner(id: id, serial: serial), delegateQueue: nil)
    }

    /// Forgets the transport of a session made by TapedeckTesting (its requests then fail); other sessions are untouched.
    static func remove(_ session: URLSession) {
        guard let id = routeID(of: session) else { return }
        table.withLock { $0.routes[id]?.handler = nil }
    }

    /// Frees route `id` for reuse once the session that owned it is invalidated or released.
    static func release(_ id: Int, serial: Int) {
        table.withLock { table in
            guard table.routes[id]?.serial == serial else { return }
            table.routes[id] = nil
            table.free.append(id)
        }
    }

    /// The number of route numbers taken (live or removed, not yet released) and the highest
    /// number ever used: what the protocol classes made so far cost.
    static var usage: (taken: Int, highest: Int) { table.withLock { ($0.routes.count, $0.highest) } }

    /// The route number of a session made by TapedeckTesting.
    static func routeID(of session: URLSession) -> Int? {
        for protocolClass in session.configuration.protocolClasses ?? [] {
            if let routed = protocolClass as? any RoutedProtocol.Type { return routed.routeID }
        }
        return nil
    }

    /// The entry behind a session, if it has one (replay counts, recorder flush, sent requests).
    static func route(of session: URLSession) -> Route? {
        routeID(of: session).flatMap(route(for:))
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
