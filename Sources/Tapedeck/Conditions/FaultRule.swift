import Foundation

/// What a fault rule does to a request it catches.
public enum FaultAction: Sendable, Hashable, CustomStringConvertible {
    /// Close the connection without an answer (a TCP reset from a server).
    case reset
    /// Never answer (in-process: fail at once as timed out).
    case timeout
    /// Answer with this status instead of the recorded response.
    case status(Int)
    /// Close the connection halfway through the body.
    case truncate
    /// Deliver the body at this many bytes per second.
    case slow(bytesPerSecond: Int)

    /// `reset`, `timeout`, `status:503`, `truncate`, `slow:1000`, as typed.
    public var description: String {
        switch self {
        case .reset: "reset"
        case .timeout: "timeout"
        case .status(let status): "status:\(status)"
        case .truncate: "truncate"
        case .slow(let rate): "slow:\(rate)"
        }
    }
}

/// A fault injected into matching requests: `[METHOD] PATH=ACTION[@RATE%]`.
///
/// PATH is a path with `*` wildcards (`/users/*`, `*` for all); the action is `reset`,
/// `timeout`, `status:CODE`, `truncate` or `slow:BYTES_PER_S`; a rate applies it to that share
/// of the matching requests, drawn from the seeded generator of ``NetworkConditions`` so runs repeat.
///
/// ```swift
/// let rule = try FaultRule(parsing: "GET /users/*=status:503@25%")
/// rule.matches(method: "GET", path: "/users/7")   // true
/// ```
public struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    /// The method it applies to, or nil for every method.
    public var method: String?
    /// The path pattern; `*` matches any run of characters.
    public var pathPattern: String
    /// What it does.
    public var action: FaultAction
    /// The share of matching requests it applies to, 0 to 1.
    public var rate: Double

    /// Creates a rule.
    public init(method: String? = nil, pathPattern: String = "*", action: FaultAction, rate: Double = 1) {
        self.method = method?.uppercased()
        self.pathPattern = pathPattern
        self.action = action
        self.rate = rate
    }

    /// Parses `[METHOD] PATH=ACTION[@RATE%]`, naming `source` in the error.
    public init(parsing text: String, source: String = "fault rule") throws(ConditionsError) {
        let expected = "write [METHOD] PATH=ACTION[@RATE%] with ACTION one of reset, timeout, status:CODE, truncate, slow:BYTES_PER_S, e.g. GET /users/*=status:503@10%"
        guard let equals = text.lastIndex(of: "=") else { throw .invalidFault(value: text, source: source, expected: expected) }
        let target = text[..<equals].trimmingCharacters(in: .whitespaces)
        var actionText = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces).lowercased()
        var rate = 1.0
        if let at = actionText.firstIndex(of: "@") {
            var rateText = actionText[actionText.index(after: at)...].trimmingCharacters(in: .whitespaces)
            if rateText.hasSuffix("%") { rateText = rateText.dropLast().trimmingCharacters(in: .whitespaces) }
            guard let percent = Double(rateText), percent >= 0, percent <= 100 else {
                throw .invalidFault(value: text, source: source, expected: "the rate after @ is a percentage from 0 to 100, e.g. reset@10%")
            }
            rate = percent / 100
            actionText = String(actionText[..<at])
        }
        let words = target.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let method: String?, pattern: String
        let isPath = { (word: String) in word.hasPrefix("/") || word.hasPrefix("*") }
        switch words.count {
        case 0: (method, pattern) = (nil, "*")
        case 1: (method, pattern) = isPath(words[0]) ? (nil, words[0]) : (words[0], "*")
        case 2: (method, pattern) = (words[0], words[1])
        default: throw .invalidFault(value: text, source: source, expected: expected)
        }
        // A path written without its leading slash would read as a method and never match.
        // A method is one HTTP knows, in any case, or a word in capitals (PROPFIND).
        let known: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"]
        if let method, !known.contains(method.uppercased()),
           !(method.allSatisfy { $0.isASCII && ($0.isUppercase || $0 == "-") }) {
            throw .invalidFault(value: text, source: source, expected: "'\(method)' is neither a method nor a path; a path starts with / (or is *), "
                + "e.g. \(words.count == 1 ? "/" + method.trimmingCharacters(in: CharacterSet(charactersIn: "/")) : "GET /users/*")=status:503")
        }
        guard isPath(pattern) else {
            throw .invalidFault(value: text, source: source, expected: "the path '\(pattern)' must start with / (or be *), e.g. GET /\(pattern)=status:503")
        }
        guard !pattern.contains("?") else {
            throw .invalidFault(value: text, source: source, expected: "a rule matches the path only, so its query (?…) would never match; "
                + "write the path alone, e.g. \(pattern.prefix { $0 != "?" })=reset")
        }
        let action: FaultAction
        let parts = actionText.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first ?? "", parts.count > 1 ? parts[1] : nil) {
        case ("reset", nil): action = .reset
        case ("timeout", nil): action = .timeout
        case ("truncate", nil): action = .truncate
        case ("status", let code?):
            // A 1xx status is not an answer: the client would wait on for the final one.
            guard let status = Int(code), (200...599).contains(status) else {
                throw .invalidFault(value: text, source: source, expected: "status:CODE takes a final status from 200 to 599, e.g. status:503")
            }
            action = .status(status)
        case ("slow", let rateText?):
            guard let bytes = Int(rateText), bytes > 0 else { throw .invalidFault(value: text, source: source, expected: "slow:BYTES_PER_S takes a positive whole number, e.g. slow:1000") }
            action = .slow(bytesPerSecond: bytes)
        default: throw .invalidFault(value: text, source: source, expected: expected)
        }
        self.init(method: method, pathPattern: pattern, action: action, rate: rate)
    }

    /// Whether the rule catches a request with this method and path (before the rate is drawn).
    public func matches(method: String, path: String) -> Bool {
        if let own = self.method, own != method.uppercased() { return false }
        return FaultRule.glob(pathPattern, matches: path)
    }

    /// `GET /users/*=status:503@10%`.
    public var description: String {
        let target = (method.map { $0 + " " } ?? "") + pathPattern
        let percent = rate * 100
        let rateText = rate >= 1 ? "" : "@" + (percent == percent.rounded() ? String(Int(percent)) : String(percent)) + "%"
        return "\(target)=\(action)\(rateText)"
    }

    /// Matches `*` against any run of characters (none included).
    static func glob(_ pattern: String, matches text: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(Substring.init)
        guard parts.count > 1 else { return pattern == text }
        var rest = Substring(text)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts[parts.count - 1])
    }
}
