import Foundation

/// How a WebSocket session looks inside a native cassette: the `101` response's `"webSocket"`
/// member, one object per frame in order.
///
/// ```json
/// "webSocket": [
///   {"from": "client", "ms": 12, "text": "hello"},
///   {"from": "server", "ms": 13.5, "text": "echo: hello"},
///   {"base64": "AAEC", "from": "server", "ms": 20},
///   {"close": 1000, "from": "client", "ms": 31, "reason": "bye"}
/// ]
/// ```
///
/// `from` is `client` or `server`, `ms` the time after the upgrade answer; the payload is one of
/// `text`, `base64` (binary), `close` (its code, with `reason`), `ping` or `pong` (base64).
enum CassetteWebSocket {
    static func encode(_ frames: [WebSocketMessage]) -> JSONValue {
        .array(frames.map { frame in
            var members: [(key: String, value: JSONValue)] = []
            switch frame.kind {
            case .text: members.append(("text", .string(String(decoding: frame.data, as: UTF8.self))))
            case .binary: members.append(("base64", .string(frame.data.base64EncodedString())))
            case .close:
                members.append(("close", JSONValue(frame.closeCode)))
                if !frame.closeReason.isEmpty { members.append(("reason", .string(frame.closeReason))) }
            case .ping: members.append(("ping", .string(frame.data.base64EncodedString())))
            case .pong: members.append(("pong", .string(frame.data.base64EncodedString())))
            }
            members += [("from", .string(frame.sender.rawValue)), ("ms", .number(CassetteChunks.millisecondsLiteral(frame.offset)))]
            return .object(members.sorted { $0.key < $1.key })
        })
    }

    static func decode(_ reader: FieldReader) throws(CassetteError) -> [WebSocketMessage] {
        try CassetteChunks.timedItems(reader, noun: "frame", example: #"{"from": "client", "ms": 0, "text": "hi"}"#,
                                      after: "the upgrade") { item, seconds throws(CassetteError) in
            let from = try item.string("from")
            guard let sender = WebSocketMessage.Sender(rawValue: from) else {
                throw .invalidField(path: item.source, pointer: item.pointer + "/from", problem: "'\(from)' is not a sender; use \"client\" or \"server\"")
            }
            let (kind, data) = try payload(of: item)
            return WebSocketMessage(offset: seconds, sender: sender, kind: kind, data: data)
        }
    }

    private static func payload(of item: FieldReader) throws(CassetteError) -> (WebSocketMessage.Kind, Data) {
        let kinds = ["text", "base64", "close", "ping", "pong"].filter { item.value[$0] != nil }
        if kinds.count > 1 {
            throw .invalidField(path: item.source, pointer: item.pointer,
                                problem: "a frame has one payload, but this one has \(kinds.joined(separator: " and ")); keep one of them")
        }
        if let text = try item.optionalString("text") { return (.text, Data(text.utf8)) }
        if let field = try item.optionalField("close") {
            guard case .number(let literal) = field.value, let code = Int(literal), WebSocketMessage.isSentCloseCode(code) else {
                throw .invalidField(path: item.source, pointer: field.pointer,
                                    problem: "a close code is a whole number from 1000 to 4999, such as 1000; 1004, 1005, 1006 and 1015 are reserved and never sent (RFC 6455 §7.4.1)")
            }
            return (.close, WebSocketMessage.closePayload(code: code, reason: try item.optionalString("reason") ?? ""))
        }
        for (key, kind) in [("base64", WebSocketMessage.Kind.binary), ("ping", .ping), ("pong", .pong)] {
            guard let text = try item.optionalString(key) else { continue }
            guard let data = Data(base64Encoded: text) else {
                throw .invalidField(path: item.source, pointer: item.pointer + "/" + key,
                                    problem: "invalid base64 (\(CassetteBody.preview(text))); it must be padded standard base64")
            }
            return (kind, data)
        }
        throw .invalidField(path: item.source, pointer: item.pointer,
                            problem: "a frame needs one of \"text\", \"base64\", \"close\", \"ping\" or \"pong\" beside \"from\" and \"ms\"")
    }
}
