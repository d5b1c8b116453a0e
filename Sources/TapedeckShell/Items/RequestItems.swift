import Foundation
import Tapedeck

/// HTTPie-style request items parsed into headers, query items, body fields and files.
///
/// | item | meaning |
/// |---|---|
/// | `Name:value` | header (`Name:` or `Name;` sends it empty) |
/// | `name==value` | query item |
/// | `name=value` | JSON string field (form field with `--form`) |
/// | `name:=json` | raw JSON field (`n:=1`, `tags:='["a"]'`) |
/// | `name@path` | multipart file (`name@path;type=image/png` sets its type) |
/// | `name=@file` / `name:=@file` | string / JSON field read from a file |
///
/// A backslash escapes a separator in the name (`a\=b=c`); `a[b][]=c` builds nested JSON.
///
/// ```swift
/// let items = try RequestItems.parse(["X-Trace:1", "q==swift", "name=Ada", "age:=36"], baseDirectory: nil)
/// items.impliedMethod            // .post
/// let body = try items.body(mode: .json)  // {"name":"Ada","age":36}
/// ```
public struct RequestItems: Sendable, Hashable {
    /// One body field: a `name=value` string or a `name:=json` value, with its nested path.
    public struct DataField: Sendable, Hashable {
        /// The name with escapes removed, as typed (`a[b]` stays `a[b]`).
        public var name: String
        /// Where the value goes in a JSON body (`a[b][]` → key a, key b, append).
        public var path: [JSONPathComponent]
        /// The value: `.string` for `=` and `=@`, any JSON for `:=` and `:=@`.
        public var value: JSONValue
        /// Whether the value came from `:=` or `:=@` (not allowed in a form).
        public var isRawJSON: Bool
        /// The item as typed, for error messages.
        public var item: String

        /// Creates a field.
        public init(name: String, path: [JSONPathComponent]? = nil, value: JSONValue, isRawJSON: Bool, item: String) {
            self.name = name
            self.path = path ?? [.key(name)]
            self.value = value
            self.isRawJSON = isRawJSON
            self.item = item
        }
    }

    /// Headers in the order typed.
    public var headers: HTTPHeaders = [:]
    /// Query items in the order typed.
    public var query: [QueryItem] = []
    /// Body fields in the order typed.
    public var fields: [DataField] = []
    /// Files to upload as multipart parts, read when parsed.
    public var files: [MultipartPart] = []
    /// A raw body set by the caller (`--raw`, `< FILE`, heredoc); conflicts with fields and files.
    public var rawBody: Data?
    /// The raw body's `Content-Type` when the caller knows it (a file's extension); nil lets
    /// ``rawContentType(for:)`` decide.
    public var rawBodyContentType: String?

    /// Creates empty items.
    public init() {}

    /// String fields as urlencoded form fields (raw JSON values written as JSON text).
    public var formFields: [RequestBody.FormField] {
        fields.map { RequestBody.FormField($0.name, $0.value.stringValue ?? JSONWriter.write($0.value, options: [])) }
    }

    /// Whether anything goes into the body.
    public var hasBody: Bool { !fields.isEmpty || !files.isEmpty || rawBody != nil }

    /// GET without body items, POST with them, as HTTPie does.
    public var impliedMethod: HTTPMethod { hasBody ? .post : .get }

    /// Parses items; relative `@file` paths resolve against `baseDirectory` (the current
    /// directory when nil). Files are read now, so a missing one fails before sending.
    public static func parse(_ arguments: [String], baseDirectory: URL?) throws(RequestItemError) -> RequestItems {
        var items = RequestItems()
        for argument in arguments { try items.add(argument, baseDirectory: baseDirectory) }
        return items
    }

    /// Parses one item and adds it.
    public mutating func add(_ item: String, baseDirectory: URL?) throws(RequestItemError) {
        if item.hasPrefix("?") { throw .queryAsItem(item: item) }
        // A misspelled option (`--verify=no`) would go out as a JSON field and turn a GET into a POST.
        if item.hasPrefix("-") { throw .looksLikeOption(item: item) }
        guard let split = ItemSplitter.split(item) else { throw .noSeparator(item: item) }
        guard !split.name.isEmpty else { throw .emptyName(item: item) }
        switch split.separator {
        case .header, .emptyHeader:
            if split.separator == .emptyHeader, !split.value.isEmpty { throw .textAfterEmptyHeader(item: item) }
            do { try HTTPHeaders.validate(name: split.name) } catch {
                throw .invalidHeaderName(item: item, name: split.name)
            }
            let value = split.value.trimmingCharacters(in: .whitespaces)
            do { try headers.add(name: split.name, value: value) } catch {
                throw .invalidHeaderValue(item: item)
            }
        case .query:
            query.append(QueryItem(name: split.name, value: split.value))
        case .string:
            try addField(split, .string(split.value), isRawJSON: false, item: item)
        case .json:
            let value: JSONValue
            do { value = try JSONParser.parse(split.value) } catch {
                throw .invalidJSON(item: item, column: error.column, reason: error.reason)
            }
            try addField(split, value, isRawJSON: true, item: item)
        case .stringFile:
            let data = try Self.read(split.value, item: item, baseDirectory: baseDirectory)
            guard let text = String(data: data, encoding: .utf8) else {
                throw .fileNotText(item: item, path: split.value)
            }
            try addField(split, .string(text), isRawJSON: false, item: item)
        case .jsonFile:
            let data = try Self.read(split.value, item: item, baseDirectory: baseDirectory)
            let value: JSONValue
            do { value = try JSONParser.parse(data) } catch {
                throw .invalidJSONFile(item: item, path: split.value, line: error.line, column: error.column, reason: error.reason)
            }
            try addField(split, value, isRawJSON: true, item: item)
        case .file:
            files.append(try Self.filePart(split, item: item, baseDirectory: baseDirectory))
        }
    }

    private mutating func addField(_ split: SplitItem, _ value: JSONValue, isRawJSON: Bool, item: String) throws(RequestItemError) {
        let path = try JSONPathComponent.parse(split.nameCharacters, item: item)
        fields.append(DataField(name: split.name, path: path, value: value, isRawJSON: isRawJSON, item: item))
    }

    /// `name@path` or `name@path;type=image/png`.
    private static func filePart(_ split: SplitItem, item: String, baseDirectory: URL?) throws(RequestItemError) -> MultipartPart {
        var path = split.value
        var contentType: String?
        if let range = path.range(of: ";type=", options: .backwards) {
            contentType = String(path[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            path = String(path[..<range.lowerBound])
        }
        let data = try read(path, item: item, baseDirectory: baseDirectory)
        let filename = (path as NSString).lastPathComponent
        let type = contentType ?? MediaType.forFileExtension((filename as NSString).pathExtension)
        return MultipartPart(name: split.name, filename: filename, contentType: type, data: data)
    }

    /// Reads a file named in an item, resolving relative paths against `baseDirectory`.
    static func read(_ path: String, item: String, baseDirectory: URL?) throws(RequestItemError) -> Data {
        guard !path.isEmpty else { throw .fileUnreadable(item: item, path: path, reason: "no file name after '@'") }
        let expanded = (path as NSString).expandingTildeInPath
        let url: URL
        if expanded.hasPrefix("/") {
            url = URL(fileURLWithPath: expanded)
        } else if let baseDirectory {
            url = baseDirectory.appendingPathComponent(expanded)
        } else {
            url = URL(fileURLWithPath: expanded)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .fileUnreadable(item: item, path: path, reason: "no such file")
        }
        if isDirectory.boolValue { throw .fileUnreadable(item: item, path: path, reason: "it is a directory") }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw .fileUnreadable(item: item, path: path, reason: "permission denied or unreadable")
        }
    }
}
