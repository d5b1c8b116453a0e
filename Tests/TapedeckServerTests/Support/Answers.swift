import NIOCore
@testable import TapedeckServer

extension ServerResponder.Answer {
    /// The future the answer comes from, if it is one.
    var pending: EventLoopFuture<ServerReply>? {
        if case .pending(let coming) = self { coming } else { nil }
    }

    /// Whether only a task can give the answer.
    var isLater: Bool {
        if case .later = self { true } else { false }
    }
}

extension Result {
    /// Whether it is a success.
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}
