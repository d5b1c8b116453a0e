import Foundation

extension Interpreter {
    /// Runs a script file as if its lines were here; its own includes resolve from its folder.
    func include(_ word: Word) async throws(ShellError) -> Bool {
        let path = try expand(word)
        let url = resolvePath(path)
        let chain = includeStack + [url]
        if includeStack.contains(url) || (includeStack.isEmpty && word.location.file == url.path) {
            let names = (includeStack.isEmpty ? [URL(fileURLWithPath: word.location.file)] : includeStack) + [url]
            throw .includeRecursion(chain: names.map(\.lastPathComponent), at: word.location)
        }
        let source: String
        do {
            source = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw .includeUnreadable(path: path, reason: exists ? "it is not readable UTF-8 text" : "no such file (\(url.path))", at: word.location)
        }
        let statements: [Statement]
        do {
            statements = try Parser.parseScript(source, file: Self.displayPath(url))
        } catch {
            throw .parse(error)
        }
        includeStack = chain
        defer { includeStack.removeLast() }
        return try await run(statements)
    }

    /// How messages name an included file: relative to the current directory when it is inside
    /// it (`scripts/login.tape:3:7`, as the user would type it), else absolute.
    static func displayPath(_ url: URL) -> String {
        let directory = FileManager.default.currentDirectoryPath
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return url.path.hasPrefix(prefix) ? String(url.path.dropFirst(prefix.count)) : url.path
    }
}
