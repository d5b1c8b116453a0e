import Foundation
import Tapedeck

/// One request a script sent and the response it got, for reports.
public struct ScriptExchange: Sendable {
    /// The line that sent it.
    public var location: SourceLocation
    /// The request as sent.
    public var request: HTTPRequest
    /// The response (its `duration` is the time the exchange took).
    public var response: HTTPResponse

    /// Creates an exchange.
    public init(location: SourceLocation, request: HTTPRequest, response: HTTPResponse) {
        self.location = location
        self.request = request
        self.response = response
    }
}
