import Foundation

/// Turns a pasted `curl …` command (as Chrome's and Firefox's "Copy as cURL" write it) into
/// the Tapedeck request command that sends the same request.
///
/// Translated: `-X`, `-H`, `-d`/`--data`/`--data-raw`/`--data-binary`/`--data-ascii`/`--data-urlencode`,
/// `-F`, `-u`, `-G`, `-I`, `-L`, `-A`, `-e`, `-b`, `--url`, `--compressed` (Tapedeck always
/// accepts compressed responses) and the output-only `-s`, `-S`, `-v`, `-i`. `-k` is a note
/// (TLS verification is a session setting: `--insecure`). Any other option is an error that names it.
///
/// ```swift
/// let result = try CurlImport.convert("curl -X POST 'http://localhost:8080/post' -H 'Accept: */*' --data-raw 'a=1'")
/// result.command   // post http://localhost:8080/post 'Accept:*/*' 'Content-Type:application/x-www-form-urlencoded' --raw a=1
/// ```
public enum CurlImport {
    /// The command and anything the user should know about it.
    public struct Result: Sendable, Hashable {
        /// One line of the command language.
        public var command: String
        /// Remarks such as `-k: …`.
        public var notes: [String]
    }

    /// Whether a line is a pasted curl command (`curl` then a space).
    public static func isCurl(_ line: String) -> Bool {
        let trimmed = line.drop { $0 == " " || $0 == "\t" }
        return trimmed.hasPrefix("curl ") || trimmed.hasPrefix("curl\t") || trimmed.hasPrefix("curl\\")
    }

    /// Converts the command text (continuation lines included).
    public static func convert(_ text: String) throws(CurlImportError) -> Result {
        try convert(words: try CurlWords.split(text))
    }

    /// Converts a command already split into words (`curl` first), as a shell passes them.
    public static func convert(words: [String]) throws(CurlImportError) -> Result {
        guard let first = words.first, first == "curl" else { throw .notCurl(words.first ?? "") }
        var spec = Spec()
        var index = 1
        func value(_ option: String) throws(CurlImportError) -> String {
            index += 1
            guard index < words.count else { throw .missingValue(option) }
            return words[index]
        }
        while index < words.count {
            var word = words[index]
            var attached: String?
            // `-XPOST`, `-H'…'`: a short option with its value attached.
            if word.count > 2, word.hasPrefix("-"), !word.hasPrefix("--"), Self.shortWithValue.contains(String(word.prefix(2))) {
                attached = String(word.dropFirst(2))
                word = String(word.prefix(2))
            } else if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                attached = String(word[word.index(after: equals)...])
                word = String(word[..<equals])
            }
            func take() throws(CurlImportError) -> String {
                if let attached { return attached }
                return try value(word)
            }
            switch word {
            case "-X", "--request": spec.method = try take()
            case "-H", "--header": spec.headers.append(try take())
            case "-d", "--data", "--data-ascii": spec.data.append(.text(try take(), stripNewlines: true))
            case "--data-raw": spec.data.append(.raw(try take()))
            case "--data-binary": spec.data.append(.text(try take(), stripNewlines: false))
            case "--data-urlencode": spec.data.append(.urlencode(try take()))
            case "--json":
                spec.data.append(.raw(try take()))
                spec.headers += ["Content-Type: application/json", "Accept: application/json"]
            case "-F", "--form": spec.form.append(try take())
            case "-u", "--user": spec.user = try take()
            case "-A", "--user-agent": spec.headers.append("User-Agent: " + (try take()))
            case "-e", "--referer": spec.headers.append("Referer: " + (try take()))
            case "-b", "--cookie":
                let cookie = try take()
                guard cookie.contains("=") else {
                    throw .unsupported("\(word) \(cookie)", hint: "reading cookies from a file is not supported; pass them as -b 'name=value'")
                }
                spec.headers.append("Cookie: " + cookie)
            case "--url": try spec.setURL(try take())
            case "-G", "--get": spec.get = true
            case "-I", "--head": spec.head = true
            case "-L", "--location": spec.follow = true
            case "--compressed", "-s", "--silent", "-S", "--show-error", "-v", "--verbose", "-i", "--include", "--globoff", "-g":
                break
            case "-k", "--insecure":
                spec.notes.append("\(word): TLS verification is a session setting in Tapedeck; start it with --insecure (tapedeck --insecure, tapedeck run --insecure)")
            default:
                if word.hasPrefix("-"), word.count > 1 {
                    throw .unsupported(word, hint: "remove it, or send the request with curl itself")
                }
                try spec.setURL(word)
            }
            index += 1
        }
        return try spec.render()
    }

    /// Short options whose value may be attached (`-XPOST`).
    static let shortWithValue: Set<String> = ["-X", "-H", "-d", "-F", "-u", "-A", "-e", "-b"]
}
