import Foundation
import Tapedeck

/// Replaces credentials in command lines before they reach disk (the history file, `save`),
/// with the same rules cassettes use: credential headers, key-like query items and
/// credential-named JSON fields and variables, bearer tokens and JWTs anywhere.
///
/// ```swift
/// CommandRedaction.redact("get /me Authorization:'Bearer abc' api_key==k1").text
/// // get /me Authorization:'<REDACTED>' api_key==<REDACTED>
/// ```
public enum CommandRedaction {
    /// The line with every credential replaced by ``Redactor/placeholder``, and how many were.
    public static func redact(_ line: String, redactor: Redactor = .standard) -> (text: String, count: Int) {
        var text = line
        var count = 0
        // Lines whose command holds a value to the end of the line (`header Authorization: value`,
        // `set token = value`: each ``CommandDefinition/secret`` says).
        for (pattern, isSecret) in lineSecrets {
            text = replace(in: text, pattern: pattern, count: &count) { groups in
                isSecret(groups[2], redactor) ? groups[1] + groups[2] + groups[3] + Redactor.placeholder : nil
            }
        }
        // Request items: Name:value headers, name==value query items, name=value / name:=value fields.
        let value = #"('[^']*'|"[^"]*"|[^\s'"]+)"#
        text = replace(in: text, pattern: #"(^|\s)(['"]?)([A-Za-z0-9_.\[\]-]+)(==|:=|=|:)"# + value, count: &count) { groups in
            let name = groups[3], separator = groups[4]
            let secret = switch separator {
            case ":": redactor.headers.contains(name.lowercased())
            case "==": redactor.redactsQueryItem(name)
            default: isCredentialName(name, redactor)
            }
            guard secret, !groups[5].contains("{{") else { return nil }
            let quote = groups[5].first.flatMap { $0 == "'" || $0 == "\"" ? String($0) : nil } ?? ""
            return groups[1] + groups[2] + name + separator + quote + Redactor.placeholder + quote
        }
        // Query items inside a typed URL.
        text = replace(in: text, pattern: ##"([?&])([A-Za-z0-9_.-]+)=([^&\s'"#]+)"##, count: &count) { groups in
            redactor.redactsQueryItem(groups[2]) && !groups[3].contains("{{") ? groups[1] + groups[2] + "=" + Redactor.placeholder : nil
        }
        let tokens = Redactor.redactTokens(in: text)
        return (tokens.text, count + tokens.count)
    }

    /// Each command's credential line (`^(header )(Name)(: )(value)$`) and whether a name's value is secret.
    private static let lineSecrets: [(pattern: String, isSecret: @Sendable (String, Redactor) -> Bool)] =
        CommandRegistry.all.compactMap { definition in
            definition.secret.map { secret in
                (#"^(\s*"# + definition.name + #"\s+)("# + secret.name + ")(" + secret.separator + ")(.+)$", secret.isSecret)
            }
        }

    /// Whether a variable or field `name` (its last `.`/`[…]` part) is a credential's, by `redactor`'s key rules.
    static func isCredentialName(_ name: String, _ redactor: Redactor) -> Bool {
        let leaf = name.split(whereSeparator: { $0 == "[" || $0 == "]" || $0 == "." }).last.map(String.init) ?? name
        return redactor.redactsJSONKey(leaf) || redactor.redactsQueryItem(leaf)
    }

    /// Replaces each match for which `make` returns a replacement (`^`/`$` match at each line); counts the replacements.
    private static func replace(in text: String, pattern: String, count: inout Int,
                                _ make: ([String]) -> String?) -> String {
        let replaced = Redactor.replacingMatches(in: text, pattern: pattern, options: [.anchorsMatchLines], make)
        count += replaced.count
        return replaced.text
    }
}
