/// JSON Pointer building for body paths and document locations (RFC 6901 escaping).
enum SchemaLocation {
    /// `token` escaped for a pointer: `~` → `~0`, `/` → `~1`.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `base` with `tokens` appended, each escaped.
    static func append(_ base: String, _ tokens: String...) -> String {
        tokens.reduce(base) { $0 + "/" + escape($1) }
    }
}
