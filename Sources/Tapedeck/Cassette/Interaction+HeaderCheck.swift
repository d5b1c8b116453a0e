import Foundation

extension Interaction {
    /// The first header of this interaction that could not be sent as stored (a name with
    /// characters outside RFC 9110's token, a value with CR, LF or NUL), as a JSON Pointer
    /// under `/interactions/index` and a problem that names the header but never quotes its
    /// value (it may be a secret, or an injected header line). Nil when every header is sendable.
    ///
    /// One rule for every door a header comes in by: recording refuses such a response, every
    /// cassette format refuses it when loaded, and the server refuses to write one.
    package func unsendableHeader(index: Int) -> (pointer: String, problem: String)? {
        if let (position, problem) = request.headers.firstProblem() {
            return ("/interactions/\(index)/request/headers/\(position)", problem)
        }
        if let (field, problem) = response.unsendablePart() {
            return ("/interactions/\(index)/response/\(field)", problem)
        }
        return nil
    }
}

extension HTTPResponse {
    /// The first part of this response a server could not write as is (`headers/N` or
    /// `reason`) and why, or nil.
    package func unsendablePart() -> (field: String, problem: String)? {
        if let (position, problem) = headers.firstProblem() { return ("headers/\(position)", problem) }
        if reason.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) {
            return ("reason", "the reason phrase holds a line break or NUL, which would end the status line; remove it")
        }
        return nil
    }
}

extension HTTPHeaders {
    /// The position of the first field that could not be sent as given, and why.
    package func firstProblem() -> (position: Int, problem: String)? {
        for (position, field) in enumerated() {
            if let problem = HTTPHeaders.problem(name: field.name, value: field.value) { return (position, problem) }
        }
        return nil
    }

    /// Why a header could not be sent as given, naming it (never quoting the value), or nil.
    package static func problem(name: String, value: String) -> String? {
        do {
            try validate(name: name)
        } catch {
            return "the header name \(Excerpt.visible(name)) has characters a header name cannot hold "
                + "(letters, digits and !#$%&'*+-.^_`|~ only); rename or remove the header"
        }
        do {
            try validate(value: value, name: name)
        } catch {
            return "the value of the header \(name) holds a line break or NUL, which would start another header line; remove it"
        }
        return nil
    }
}
