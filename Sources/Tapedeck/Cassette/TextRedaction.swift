import Foundation

/// The ``Redactor`` rules applied to free text (report messages, `actual:` values, body
/// excerpts): JSON members and `name=value` pairs with credential names, credential header
/// lines, bearer tokens and JWTs. What it replaces is collected, so the caller can replace
/// the same values wherever else they appear.
enum TextRedaction {
    static func redact(_ text: String, redactor: Redactor, collecting secrets: inout [String]) -> String {
        var result = text
        // "password": "hunter2" (JSON, also inside escaped JSON in a message).
        result = replace(in: result, pattern: #"(\\?"([A-Za-z0-9_.-]+)\\?"\s*:\s*\\?")((?:[^"\\]|\\[^"])*)(\\?")"#) { groups in
            guard redactor.redactsJSONKey(groups[2]) || redactor.redactsQueryItem(groups[2]),
                  !groups[3].isEmpty, !Redactor.isPlaceholder(groups[3]) else { return nil }
            secrets.append(groups[3])
            return groups[1] + Redactor.placeholder + groups[4]
        }
        // password=hunter2 and ?api_key=… (form bodies, query strings).
        result = replace(in: result, pattern: #"(^|[?&\s"'(\[,;])([A-Za-z0-9_.-]+)=([^&\s"'#<>)\],;]+)"#) { groups in
            guard redactor.redactsFormField(groups[2]), !Redactor.isPlaceholder(groups[3]) else { return nil }
            let value = FormFields.decode(Substring(groups[3]))
            secrets.append(value)
            if value != groups[3] { secrets.append(groups[3]) }
            return groups[1] + groups[2] + "=" + Redactor.placeholder
        }
        // Authorization: Basic … as a header line.
        result = replace(in: result, pattern: #"(?m)^(\s*)([A-Za-z0-9-]+)(:[ \t]*)(\S[^\r\n]*)$"#) { groups in
            let name = groups[2].lowercased()
            guard redactor.headers.contains(name), !Redactor.isPlaceholder(groups[4]) else { return nil }
            return groups[1] + groups[2] + groups[3] + Redactor.redactHeaderValue(groups[4], name: name, collecting: &secrets)
        }
        return tokens(in: result, collecting: &secrets)
    }

    /// Bearer tokens (`Bearer abc…`, 8+ token characters), Basic credentials (`Basic` and
    /// base64 of `user:password`) and JWTs (`eyJ….eyJ….…`) replaced.
    static func tokens(in text: String, collecting secrets: inout [String]) -> String {
        var result = replace(in: text, pattern: #"(?i)(bearer\s+)([A-Za-z0-9._~+/=-]{8,})"#) { groups in
            guard groups[2] != Redactor.placeholder else { return nil }
            secrets.append(groups[2])
            return groups[1] + Redactor.placeholder
        }
        result = replace(in: result, pattern: #"(?i)(basic\s+)([A-Za-z0-9+/]{4,}={0,2})"#) { groups in
            guard let decoded = Data(base64Encoded: groups[2]), decoded.contains(UInt8(ascii: ":")) else { return nil }
            secrets.append(groups[2])
            return groups[1] + Redactor.placeholder
        }
        result = replace(in: result, pattern: #"eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]+"#) { groups in
            secrets.append(groups[0])
            return Redactor.placeholder
        }
        return result
    }

    /// Replaces each match for which `make` returns a replacement.
    private static func replace(in text: String, pattern: String, _ make: ([String]) -> String?) -> String {
        Redactor.replacingMatches(in: text, pattern: pattern, make).text
    }
}
