import Foundation

/// Compares a recorded response with the live one as ``DriftOptions`` say: status, chosen
/// headers, the shape of JSON bodies (members added, removed or retyped, at JSON Pointers),
/// JSON values when asked, and for other bodies the media type and size class.
///
/// ```swift
/// let drifts = ResponseDrift.compare(recorded: old, live: new, options: DriftOptions())
/// drifts.map(\.description)   // ["body /email: string → (absent) [removed]"]
/// ```
enum ResponseDrift {
    /// The drifts, status first, then headers, then the body in document order.
    static func compare(recorded: HTTPResponse, live: HTTPResponse, options: DriftOptions) -> [Drift] {
        var drifts: [Drift] = []
        if options.status, recorded.status != live.status {
            drifts.append(Drift(kind: .status, field: "status", recorded: String(recorded.status), live: String(live.status)))
        }
        for name in options.headers {
            let before = recorded.headers.values(for: name), after = live.headers.values(for: name)
            if before != after {
                drifts.append(Drift(kind: .header, field: "header \(name)", recorded: show(before), live: show(after)))
            }
        }
        guard options.shape else { return drifts }
        let recordedType = recorded.mediaType ?? "", liveType = live.mediaType ?? ""
        let recordedJSON = MediaType.isJSON(recordedType) ? try? JSONParser.parse(recorded.body) : nil
        let liveJSON = MediaType.isJSON(liveType) ? try? JSONParser.parse(live.body) : nil
        if let recordedJSON, let liveJSON {
            var shape = ShapeWalk(options: options)
            shape.walk(recordedJSON, liveJSON, at: "")
            return drifts + shape.collapsed()
        }
        if recordedType != liveType {
            drifts.append(Drift(kind: .contentType, field: "content type", recorded: recordedType.isEmpty ? nil : recordedType,
                                live: liveType.isEmpty ? nil : liveType))
        } else if sizeClass(recorded.body.count) != sizeClass(live.body.count) {
            drifts.append(Drift(kind: .size, field: "body size", recorded: sizeClass(recorded.body.count),
                                live: sizeClass(live.body.count)))
        } else if options.values, recorded.body != live.body {
            drifts.append(Drift(kind: .value, field: "body", recorded: "\(recorded.body.count) bytes",
                                live: "\(live.body.count) bytes (content differs)"))
        }
        return drifts
    }

    /// `empty`, `under 1 KB`, `1 KB to 1 MB`, `1 MB or more`: sizes in one class are not drift.
    static func sizeClass(_ count: Int) -> String {
        switch count {
        case 0: "empty"
        case ..<1024: "under 1 KB"
        case ..<(1024 * 1024): "1 KB to 1 MB"
        default: "1 MB or more"
        }
    }

    static func show(_ values: [String]) -> String? {
        switch values.count {
        case 0: nil
        case 1: "\"\(values[0])\""
        default: "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }
}

/// Walks two JSON documents side by side, collecting shape (and value) drifts.
struct ShapeWalk {
    let options: DriftOptions
    var drifts: [Drift] = []
    /// How deep the walk may go before it stops comparing (a limit on hostile input).
    static let maximumDepth = 256

    init(options: DriftOptions) { self.options = options }

    mutating func walk(_ recorded: JSONValue, _ live: JSONValue, at pointer: String, depth: Int = 0) {
        guard !options.ignores(pointer), depth < Self.maximumDepth else { return }
        switch (recorded, live) {
        case let (.object(before), .object(after)):
            let afterKeys = Dictionary(after.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            let beforeKeys = Dictionary(before.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            var seen = Set<String>()
            for member in before where seen.insert(member.key).inserted {
                let child = pointer + "/" + JSONValue.escapePointerToken(member.key)
                if let other = afterKeys[member.key] {
                    walk(beforeKeys[member.key] ?? member.value, other, at: child, depth: depth + 1)
                } else if !options.ignores(child) {
                    drifts.append(Drift(kind: .removed, field: "body", pointer: child, recorded: member.value.typeName, live: nil))
                }
            }
            for member in after where seen.insert(member.key).inserted {
                let child = pointer + "/" + JSONValue.escapePointerToken(member.key)
                if !options.ignores(child) {
                    drifts.append(Drift(kind: .added, field: "body", pointer: child, recorded: nil, live: member.value.typeName))
                }
            }
        case let (.array(before), .array(after)):
            if options.values, before.count != after.count {
                drifts.append(Drift(kind: .value, field: "body", pointer: pointer, recorded: "\(before.count) elements",
                                    live: "\(after.count) elements"))
            }
            for (index, pair) in zip(before, after).enumerated() {
                walk(pair.0, pair.1, at: pointer + "/" + String(index), depth: depth + 1)
            }
        default:
            if recorded.typeName != live.typeName {
                drifts.append(Drift(kind: .retyped, field: "body", pointer: pointer, recorded: recorded.typeName, live: live.typeName))
            } else if options.values, !recorded.semanticallyEquals(live) {
                drifts.append(Drift(kind: .value, field: "body", pointer: pointer, recorded: clip(JSONWriter.write(recorded)),
                                    live: clip(JSONWriter.write(live))))
            }
        }
    }

    /// The drifts with repeats across array elements (`/items/0/email`, `/items/1/email`, …)
    /// reported once, at the first element, with a count of the others.
    func collapsed() -> [Drift] {
        var result: [Drift] = []
        var firstByPattern: [String: Int] = [:]
        for drift in drifts {
            let pattern = "\(drift.kind.rawValue) \(drift.recorded ?? "") \(drift.live ?? "") " + Self.pattern(drift.pointer ?? "")
            if drift.kind != .value, let first = firstByPattern[pattern] {
                result[first].alsoInOtherElements += 1
            } else {
                firstByPattern[pattern] = result.count
                result.append(drift)
            }
        }
        return result
    }

    /// `/items/3/email` → `/items/*/email`.
    static func pattern(_ pointer: String) -> String {
        pointer.split(separator: "/", omittingEmptySubsequences: false)
            .map { token in token.allSatisfy(\.isNumber) && !token.isEmpty ? "*" : String(token) }
            .joined(separator: "/")
    }

    private func clip(_ text: String) -> String {
        text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}
