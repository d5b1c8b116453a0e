import Foundation

/// Handlers tried in order: the first that answers a request answers it; the ones after it
/// are not asked. A chain is a handler too (nil when none answered), so chains nest.
///
/// ```swift
/// let chain: ServerHandlerChain = [.control(deck), .mounts(deck), .tapes(deck), .forward(deck), .unmatched(deck)]
/// let reply = await chain.respond(to: IncomingRequest(method: "GET", target: "/users"))
/// ```
package struct ServerHandlerChain: ServerHandler, ExpressibleByArrayLiteral {
    /// The handlers, in the order they are asked.
    package var handlers: [any ServerHandler]

    /// Creates a chain asking `handlers` in order.
    package init(_ handlers: [any ServerHandler]) {
        self.handlers = handlers
    }

    /// Creates a chain asking the listed handlers in order.
    package init(arrayLiteral handlers: any ServerHandler...) {
        self.handlers = handlers
    }

    /// The path every request takes through a ``Deck``: the inspector, its control endpoints, then its
    /// tapes, then the upstream (`--unmatched forward`), then the unmatched answer, which
    /// always answers. A new kind of answer is one more handler in this list.
    package static func standard(for deck: Deck) -> ServerHandlerChain {
        [.connect(deck), .loop(deck), .inspector(deck), .control(deck), .mounts(deck), .tapes(deck), .forward(deck), .unmatched(deck)]
    }

    /// The answer of the first handler that answers `request`, or nil when none does, with
    /// the caller's ``HandlerNotes/current`` (the deck reads what they noted afterwards).
    package func respondSharingNotes(to request: IncomingRequest) async -> ServerReply? {
        for handler in handlers {
            if let reply = await handler.respond(to: request) { return reply }
        }
        return nil
    }

    /// ``respondAtOnce(to:)`` with the caller's ``HandlerNotes/current``.
    package func respondAtOnceSharingNotes(to request: IncomingRequest) -> ImmediateAnswer {
        for handler in handlers {
            switch handler.respondAtOnce(to: request) {
            case .answered(let reply): return .answered(reply)
            case .passed: continue
            case .waits: return .waits
            case .pending(let reply): return .pending(reply)
            }
        }
        return .passed
    }

    /// The first answer the handlers give without waiting; ``ImmediateAnswer/waits`` as soon
    /// as one must wait (then ``respond(to:)`` asks them all again, with fresh notes: a
    /// handler that passes at once changes nothing but its notes).
    package func respondAtOnce(to request: IncomingRequest) -> ImmediateAnswer {
        HandlerNotes.$current.withValue(HandlerNotes()) { respondAtOnceSharingNotes(to: request) }
    }

    /// The answer of the first handler that answers `request`, or nil when none does. The
    /// handlers share fresh ``HandlerNotes`` for this request (a nested chain starts its own).
    package func respond(to request: IncomingRequest) async -> ServerReply? {
        await HandlerNotes.$current.withValue(HandlerNotes()) {
            for handler in handlers {
                if let reply = await handler.respond(to: request) { return reply }
            }
            return nil
        }
    }
}
