import Foundation
import Tapedeck
import TapedeckTooling

/// The control endpoints under ``ServerMarker/controlPrefix``, for UI tests that keep one
/// server across many test cases:
///
/// | request | does |
/// |---|---|
/// | `GET /__tapedeck/status` | JSON: cassettes with recorded/played/unused counts, the last mismatches |
/// | `POST /__tapedeck/reset` | replay positions start over (recordings are written first) |
/// | `POST /__tapedeck/load?cassette=PATH[&cassette=…][&mount=/p]` | switch the cassettes served (under a mount) |
/// | `POST /__tapedeck/record/start?cassette=PATH[&mode=new][&upstream=URL]` | record what goes through to the upstream |
/// | `POST /__tapedeck/record/stop` | write the recording and replay it from now on |
struct ControlAPI {
    let deck: Deck

    static let endpoints = """
        GET  \(ServerMarker.controlPrefix)status
        POST \(ServerMarker.controlPrefix)reset
        POST \(ServerMarker.controlPrefix)load?cassette=PATH[&cassette=PATH…][&mount=/prefix]
        POST \(ServerMarker.controlPrefix)record/start?cassette=PATH[&mode=once|new|all][&upstream=URL][&mount=/prefix]
        POST \(ServerMarker.controlPrefix)record/stop
        """

    func respond(_ incoming: IncomingRequest) -> ServerReply {
        let name = String(incoming.path.dropFirst(ServerMarker.controlPrefix.count))
        let query = URLComponents(string: "http://control" + incoming.pathAndQuery)?.queryItems ?? []
        func values(_ key: String) -> [String] { query.filter { $0.name == key }.compactMap(\.value).filter { !$0.isEmpty } }
        let method = incoming.method.uppercased()
        if let mount = values("mount").first, let problem = Deck.mountProblem(mount) {
            return .text(400, "mount=: \(problem)\n", headers: [ServerMarker.errorHeader: "400"])
        }
        do {
            switch (name, method) {
            case ("status", "GET"):
                return .json(200, try Self.encode(deck.status))
            case ("reset", "POST"):
                try deck.reset()
                return .json(200, try Self.encode(deck.status))
            case ("load", "POST"):
                let named = values("cassette")
                guard !named.isEmpty else { return missing("cassette", example: "load?cassette=Sessions/users.cassette.json") }
                var paths: [String] = []
                for path in named {
                    switch confined(path) {
                    case .inside(let inside): paths.append(inside)
                    case .refused(let refusal): return refusal
                    }
                }
                try deck.switchTo(paths: paths, mount: values("mount").first ?? "")
                return .json(200, try Self.encode(deck.status))
            case ("record/start", "POST"):
                guard let named = values("cassette").first else { return missing("cassette", example: "record/start?cassette=new.cassette.json&upstream=http://127.0.0.1:8000") }
                let path: String
                switch confined(named) {
                case .inside(let inside): path = inside
                case .refused(let refusal): return refusal
                }
                let mode = try RecordMode(parsing: values("mode").first ?? "new", source: "mode=")
                guard let upstreamText = values("upstream").first ?? deck.options.upstream?.absoluteString else {
                    return missing("upstream", example: "record/start?cassette=\(path)&upstream=http://127.0.0.1:8000")
                }
                let upstream: URL
                do {
                    upstream = try UpstreamURL.parse(upstreamText) { "record/start?cassette=\(path)&upstream=\($0)" }
                } catch {
                    return .text(400, error.message + "\n", headers: [ServerMarker.errorHeader: "400"])
                }
                try deck.startRecording(path: path, mode: mode, upstream: upstream, mount: values("mount").first ?? "")
                return .json(200, try Self.encode(deck.status))
            case ("record/stop", "POST"):
                try deck.stopRecording()
                return .json(200, try Self.encode(deck.status))
            case ("status", _), ("reset", _), ("load", _), ("record/start", _), ("record/stop", _):
                return .text(405, "\(method) is not allowed on \(incoming.path); the control endpoints are:\n\(Self.endpoints)\n",
                             headers: [ServerMarker.errorHeader: "405"])
            default:
                return .text(404, "no control endpoint \(incoming.path); they are:\n\(Self.endpoints)\n", headers: [ServerMarker.errorHeader: "404"])
            }
        } catch {
            let text = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
            // The path only: a parameter (an upstream's URL) may carry a credential.
            deck.options.log("control: \(incoming.method) \(incoming.path): \(text)")
            // What a file holds never goes back to the client: only the server's log says why
            // a cassette could not be read. A bad parameter's own message is safe to return.
            switch error as? CassetteError {
            case .malformedJSON?, .invalidField?, .unsupportedVersion?, .unreadable?:
                return .text(400, "the cassette named could not be read as a cassette; the server's log says why\n",
                             headers: [ServerMarker.errorHeader: "400"])
            default:
                return .text(400, text + "\n", headers: [ServerMarker.errorHeader: "400"])
            }
        }
    }

    /// `path` resolved against the cassette folder, when it stays inside it (after `..` and
    /// symbolic links); else the 403 that says where cassettes may be.
    private enum Confined {
        case inside(String)
        case refused(ServerReply)
    }

    private func confined(_ path: String) -> Confined {
        guard !path.contains("\0") else {
            return .refused(.text(400, "a cassette path cannot hold a NUL byte\n", headers: [ServerMarker.errorHeader: "400"]))
        }
        let folder = deck.options.cassetteDirectory.standardizedFileURL.resolvingSymlinksInPath()
        let url = (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)).standardizedFileURL
        // Links in the existing part of the path count: resolve the deepest folder that exists.
        var existing = url
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" { existing = existing.deletingLastPathComponent() }
        let resolved = existing.resolvingSymlinksInPath().path + String(url.path.dropFirst(existing.path.count))
        let inside = folder.path == "/" || resolved.hasPrefix(folder.path + "/")
        guard inside else {
            return .refused(.text(403, "cassette path \(Excerpt.of(path)) is outside the folder this server serves from (\(folder.path)); "
                + "name a cassette under it, or start the server with --cassette-dir\n", headers: [ServerMarker.errorHeader: "403"]))
        }
        return .inside(resolved)
    }

    private func missing(_ parameter: String, example: String) -> ServerReply {
        .text(400, "missing query parameter '\(parameter)'; e.g. curl -X POST '\(deck.origin.absoluteString)\(ServerMarker.controlPrefix)\(example)'\n",
              headers: [ServerMarker.errorHeader: "400"])
    }

    static func encode(_ status: DeckStatus) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(status) + Data("\n".utf8)
    }
}
