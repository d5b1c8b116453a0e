import Foundation
import Tapedeck
import TapedeckOpenAPI

extension Interpreter {
    /// `openapi FILE` loads a document (and, live with no base set, takes its server as the base),
    /// `openapi off` drops it, `openapi` alone says which is loaded.
    func loadOpenAPI(_ word: Word?, at location: SourceLocation) throws(ShellError) {
        guard let word else {
            output.line(openAPI.map(Self.describe) ?? "no OpenAPI document loaded; load one with 'openapi FILE'")
            return
        }
        let text = try expand(word)
        if text == "off", !word.quoted {
            if let guide = openAPI { output.line("dropped the OpenAPI document \(guide.spec.path)") }
            openAPI = nil
            return
        }
        let guide: OpenAPIGuide
        do {
            guide = OpenAPIGuide(spec: try OpenAPISpec.load(resolvePath(text), named: text))
        } catch {
            throw .openAPI(error.localizedDescription, at: word.location)
        }
        openAPI = guide
        var note = Self.describe(guide)
        if state.base == nil, modeDescription == "live", let server = guide.serverURL {
            state.base = server
            state.path = "/"
            note += "; base set to its server \(server.absoluteString)"
        }
        output.line(note)
    }

    /// `ls [PATH]`: the segments under the current path (or PATH), HttpRepl's way:
    /// `.` and `..` first, then each child with its methods; a child with more below ends in `/`.
    func list(_ word: Word?, at location: SourceLocation) throws(ShellError) {
        guard let guide = openAPI else {
            throw .openAPI("ls lists the paths of an OpenAPI document, and none is loaded; load one with 'openapi FILE'",
                           at: location)
        }
        var target = state
        if let word { target.changePath(try expand(word)) }
        let path = target.path
        guard guide.knows(path) else {
            throw .openAPI("\(path) is not a path of \(guide.spec.path), nor on the way to one; 'cd /' and 'ls' show where its paths start",
                           at: word?.location ?? location)
        }
        let entries = guide.children(of: path)
        var rows = [(".", guide.methods(at: path))]
        if path != "/" { rows.append(("..", [])) }
        rows += entries.map { ($0.name + ($0.hasChildren ? "/" : ""), $0.methods) }
        let width = rows.map(\.0.count).max() ?? 1
        output.line(rows.map { name, methods in
            name.padding(toLength: width + 3, withPad: " ", startingAt: 0) + "[" + methods.joined(separator: "|") + "]"
        }.joined(separator: "\n"))
    }

    /// After `cd`: a note when the new path is not in the loaded document.
    func warnOutsideOpenAPI() {
        guard let guide = openAPI, !guide.knows(state.path) else { return }
        (options.warnings ?? output).line("warning: \(state.path) is not a path of \(guide.spec.path); 'ls' lists the documented ones")
    }

    /// After a response: one warning line per way the exchange breaks the loaded document.
    func warnAgainstOpenAPI(_ request: HTTPRequest, _ response: HTTPResponse) {
        guard let guide = openAPI else { return }
        let findings = guide.findings(request: request, response: response, basePath: state.base?.path(percentEncoded: true))
        guard !findings.isEmpty else { return }
        // The pointer and the message quote the server's member names and values: shown, not obeyed.
        let lines = findings.map { finding in
            "  " + TerminalText.visible("\(finding.place): \(finding.message) (schema \(finding.schemaLocation))", keepLineBreaks: false)
        }
        (options.warnings ?? output).line("warning: this exchange breaks \(guide.spec.path):\n" + lines.joined(separator: "\n"))
    }

    private static func describe(_ guide: OpenAPIGuide) -> String {
        let (paths, operations) = guide.counts
        let version = guide.spec.version
        return "\(guide.spec.path): OpenAPI \(version), \(paths) path\(paths == 1 ? "" : "s"), "
            + "\(operations) operation\(operations == 1 ? "" : "s")"
    }
}
