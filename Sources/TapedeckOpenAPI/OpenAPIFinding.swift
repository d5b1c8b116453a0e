import Foundation
import Tapedeck

/// One way a recorded interaction departs from an OpenAPI document.
package struct OpenAPIFinding: Sendable, Hashable, CustomStringConvertible {
    /// What kind of departure it is.
    package enum Kind: String, Sendable, Hashable {
        /// No path template of the document matches the request's path.
        case unknownPath = "unknown path"
        /// The path is documented but not for this method.
        case unknownMethod = "unknown method"
        /// The operation documents no response for this status (nor a range or `default`).
        case undocumentedStatus = "undocumented status"
        /// A parameter is missing or does not match its schema.
        case parameter
        /// The request body does not match its schema.
        case requestBody = "request body"
        /// The response body does not match its schema.
        case responseBody = "response body"
        /// A documented response header is missing or does not match its schema.
        case responseHeader = "response header"
        /// The document refers to a component it does not define: the document is at fault.
        case brokenReference = "broken reference"
    }

    /// The interaction's position in the cassette (0-based).
    package var index: Int
    /// The request's method.
    package var method: String
    /// The request's URL.
    package var url: String
    /// What kind of departure it is.
    package var kind: Kind
    /// The JSON Pointer in the body (or the parameter's name), empty for the whole body.
    package var pointer: String
    /// Where in the document the rule lives, as a JSON Pointer fragment (`#/paths/~1get/get/...`).
    package var schemaLocation: String
    /// What is wrong.
    package var message: String

    /// Creates a finding.
    package init(index: Int, method: String, url: String, kind: Kind, pointer: String = "",
                schemaLocation: String, message: String) {
        self.index = index
        self.method = method
        self.url = url
        self.kind = kind
        self.pointer = pointer
        self.schemaLocation = schemaLocation
        self.message = message
    }

    /// What the finding is about: `response body /url`, `parameter query page`,
    /// `response header Content-Length`, `unknown path`.
    package var place: String {
        switch kind {
        case .requestBody, .responseBody: "\(kind.rawValue) \(pointer.isEmpty ? "(root)" : pointer)"
        case .parameter: "parameter \(pointer)"
        case .responseHeader: "response \(pointer)"
        case .unknownPath, .unknownMethod, .undocumentedStatus, .brokenReference: kind.rawValue
        }
    }

    /// `interactions[2] GET http://…/get: response body /url: expected string, found number (schema #/paths/…)`.
    /// Names and values from the cassette (member names, strings) are shown, not obeyed: a
    /// control character in one is escaped, so it cannot forge a line or move a terminal's cursor.
    package var description: String {
        ControlText.visible("interactions[\(index)] \(method) \(url): \(place): \(message) (schema \(schemaLocation))", keepLineBreaks: false)
    }
}
