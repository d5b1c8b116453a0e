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
        // Request items (Name:value headers, name==value query items, name=value / name:=value
        // fields) and a pasted curl's options, however each word is quoted: the words are read
        // as a shell reads them, and a secret word is written again whole.
        let redactedWords = redactWords(in: text, redactor: redactor)
        text = redactedWords.text
        count += redactedWords.count
        // Query items inside a typed URL.
        text = replace(in: text, pattern: ##"([?&])([A-Za-z0-9_.-]+)=([^&\s'"#]+)"##, count: &count) { groups in
            redactor.redactsQueryItem(groups[2]) && !groups[3].contains("{{") && groups[3] != Redactor.placeholder ? groups[1] + groups[2] + "=" + Redactor.placeholder : nil
        }
        var tokens = Redactor.redactTokens(in: text)
        // Vendor keys (`sk_live_…`, `ghp_…`) wherever they are typed, as free text loses them.
        for key in SecretLint.vendorValues(in: tokens.text) {
            tokens.text = tokens.text.replacingOccurrences(of: key, with: Redactor.placeholder)
            tokens.count += 1
        }
        return (tokens.text, count + tokens.count)
    }

    /// Every word of `text` whose item (or curl option value) holds a credential, spelled again
    /// with ``Redactor/placeholder`` as its value. A line the shell rules cannot read (an
    /// unclosed quote) is read as words between spaces.
    private static func redactWords(in text: String, redactor: Redactor) -> (text: String, count: Int) {
        var characters = Array(text)
        let words = (try? CurlWords.words(text)) ?? spaceSeparatedWords(characters)
        var replacements: [(span: Range<Int>, text: String)] = []
        let isCurl = words.first?.text == "curl"
        for (index, word) in words.enumerated() where !word.text.contains("{{") {
            let option = index > 0 && isCurl ? words[index - 1].text : nil
            let raw = String(characters[word.span])
            let spelled: String
            if let url = redactedUserinfo(word.text) {
                spelled = respelled(url, like: raw)
            } else if isCurl, let attached = attachedOptions.first(where: { word.text.hasPrefix($0) && word.text.count > $0.count }),
                      raw.hasPrefix(attached),
                      let value = redactedWord(String(word.text.dropFirst(attached.count)), afterOption: attached, redactor: redactor) {
                // curl's short options take their value attached too: -H'X-Api-Key: …', -uuser:pw.
                spelled = attached + respelled(value, like: String(raw.dropFirst(attached.count)))
            } else if let value = redactedWord(word.text, afterOption: option, redactor: redactor) {
                spelled = respelled(value, like: raw)
            } else {
                continue
            }
            replacements.append((word.span, spelled))
        }
        for replacement in replacements.reversed() {
            characters.replaceSubrange(replacement.span, with: Array(replacement.text))
        }
        return (String(characters), replacements.count)
    }

    /// The words between whitespace, as typed.
    private static func spaceSeparatedWords(_ characters: [Character]) -> [CurlWords.Word] {
        var words: [CurlWords.Word] = []
        var start: Int?
        for index in 0...characters.count {
            if index == characters.count || characters[index].isWhitespace {
                if let begin = start { words.append(.init(text: String(characters[begin..<index]), span: begin..<index)) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        return words
    }

    /// The curl short options whose value may be written attached (`-uuser:pw`).
    private static let attachedOptions = ["-H", "-u", "-U", "-b", "-d", "-F"]

    /// A URL word with its userinfo password replaced (`http://bob:<REDACTED>@host/…`), or nil.
    private static func redactedUserinfo(_ word: String) -> String? {
        guard word.contains("://"), word.contains("@"), let url = URL(string: word),
              let password = url.password(percentEncoded: false), !password.isEmpty, !Redactor.isPlaceholder(password) else { return nil }
        return Redactor.redactingPassword(url).absoluteString
    }

    /// The word with its secret value replaced, or nil when it holds none. After a curl
    /// option (`-H`, `-u`, `-b`, `-d`…) the word is read as that option's value.
    private static func redactedWord(_ word: String, afterOption option: String?, redactor: Redactor) -> String? {
        switch option {
        case "-H", "--header", "--proxy-header":
            guard let colon = word.firstIndex(of: ":") else { return nil }
            let name = word[..<colon].trimmingCharacters(in: .whitespaces)
            return redactor.headers.contains(name.lowercased()) ? name + ": " + Redactor.placeholder : nil
        case "--pass", "--proxy-pass":
            return Redactor.placeholder
        case "-E", "--cert", "--proxy-cert":
            guard let colon = word.lastIndex(of: ":") else { return nil }
            return word[..<colon] + ":" + Redactor.placeholder
        case "-u", "--user", "-U", "--proxy-user":
            guard let colon = word.firstIndex(of: ":") else { return nil }
            return word[..<colon] + ":" + Redactor.placeholder
        case "-b", "--cookie":
            return word.contains("=") ? Redactor.placeholder : nil
        case "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--json":
            let isJSON = word.first.map { "{[".contains($0) } ?? false
            var secrets: [String] = []
            let body = redactor.redactBody(Data(word.utf8), contentType: isJSON ? "application/json" : "application/x-www-form-urlencoded",
                                           collecting: &secrets)
            // A form body holds the placeholder percent-encoded; a command line spells it plainly.
            let encoded = Redactor.placeholder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? Redactor.placeholder
            return secrets.isEmpty ? nil : String(decoding: body, as: UTF8.self).replacingOccurrences(of: encoded, with: Redactor.placeholder)
        case "-F", "--form":
            guard let equals = word.firstIndex(of: "="), isCredentialName(String(word[..<equals]), redactor) else { return nil }
            return word[..<equals] + "=" + Redactor.placeholder
        default:
            // A JSON body typed whole (`--raw '{"password": …}'`, a pasted heredoc) is redacted as a JSON body is.
            if let first = word.first, first == "{" || first == "[" {
                var secrets: [String] = []
                let body = redactor.redactBody(Data(word.utf8), contentType: "application/json", collecting: &secrets)
                return secrets.isEmpty ? nil : String(decoding: body, as: UTF8.self)
            }
            guard let item = ItemSplitter.split(word), !item.value.isEmpty,
                  item.name.allSatisfy({ $0.isLetter || $0.isNumber || "_.-[]".contains($0) }) else { return nil }
            let secret = switch item.separator {
            // Cassettes' lint calls a key-like header name a credential (`X-Refresh-Token`) too.
            case .header: redactor.headers.contains(item.name.lowercased()) || Redactor.isKeyLike(item.name.lowercased())
            case .query: redactor.redactsQueryItem(item.name)
            case .string, .json: isCredentialName(item.name, redactor)
            case .jsonFile, .stringFile, .file, .emptyHeader: false
            }
            guard secret, let separatorStart = word.range(of: item.separator.rawValue) else { return nil }
            return word[..<separatorStart.upperBound] + Redactor.placeholder
        }
    }

    /// `word` spelled the way `raw` was: as typed when it needs no quotes, else with the same
    /// kind of quote around its value (`Name:'…'`) or around the whole word (`'Name:…'`).
    private static func respelled(_ word: String, like raw: String) -> String {
        let needsQuotes = word.replacingOccurrences(of: Redactor.placeholder, with: "").contains { $0.isWhitespace || "'\"\\$`#;&|<>()".contains($0) }
        guard needsQuotes || raw.contains("'") || raw.contains("\"") else { return word }
        let quote: Character = raw.first == "\"" || (raw.last == "\"" && !raw.contains("'")) ? "\"" : "'"
        if raw.first == quote || raw.hasPrefix("$'") || needsQuotes && !word.contains(Redactor.placeholder) {
            return String(quote) + word + String(quote)
        }
        guard let value = word.range(of: Redactor.placeholder, options: .backwards) else {
            return String(quote) + word + String(quote)
        }
        return word[..<value.lowerBound] + String(quote) + word[value.lowerBound...] + String(quote)
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
