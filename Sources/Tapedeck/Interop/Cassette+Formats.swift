import Foundation

extension Cassette {
    /// Reads a vcrpy or HAR file for ``load(from:)``, which dispatches here by extension so
    /// every replay site (REPL `replay`, `tapedeck run --replay`, `URLSession.replaying`)
    /// accepts all three formats. Errors keep the interop message (file, path inside, problem).
    static func loadInterop(from url: URL, format: CassetteFormat, maximumFileSize: Int = Cassette.defaultMaximumFileSize,
                            limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        let data: Data
        do {
            data = try FileAccess.read(url, maximumSize: maximumFileSize)
        } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
        return try decodeInterop(data, from: url, format: format, limits: limits)
    }

    /// Decodes a vcrpy (YAML or JSON) or HAR file's bytes, mapping errors to ``CassetteError``.
    static func decodeInterop(_ data: Data, from url: URL, format: CassetteFormat,
                              limits: BodyLimits = BodyLimits()) throws(CassetteError) -> Cassette {
        let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
        do {
            return try decode(data, format: format, file: url.path, defaultDate: modified ?? Date(timeIntervalSince1970: 0), limits: limits)
        } catch let error as InteropError {
            switch error {
            case let .malformed(file, path, problem): throw .invalidField(path: file, pointer: path, problem: problem)
            case let .syntax(file, line, column, problem):
                throw .unreadable(path: "\(file):\(line):\(column)", reason: problem + "; fix the file by hand, "
                    + "or convert or record it again")
            default: throw .unreadable(path: url.path, reason: error.errorDescription ?? "\(error)")
            }
        } catch let error as CassetteError {
            throw error
        } catch {
            throw .unreadable(path: url.path, reason: "\(error)")
        }
    }

    /// Writes a vcrpy or HAR file for ``write(to:)`` (recording into `x.yaml` or `x.har`).
    func writeInterop(to url: URL, format: CassetteFormat) throws(CassetteError) {
        do {
            try write(to: url, format: format)
        } catch {
            throw .writeFailed(path: url.path, reason: error.errorDescription ?? "\(error)")
        }
    }

    /// Decodes cassette bytes in `format`; `file` names the source in errors, and `defaultDate`
    /// is the `recordedAt` of interactions whose format has no date (plain vcrpy cassettes).
    /// Compressed bodies (vcrpy, HAR and cassetter files may hold gzip) decode within `limits`.
    public static func decode(
        _ data: Data, format: CassetteFormat, file: String, defaultDate: Date = Date(timeIntervalSince1970: 0),
        limits: BodyLimits = BodyLimits()
    ) throws -> Cassette {
        switch format {
        case .native: try CassetteCodec.decode(data, source: file)
        case .vcrYAML: try VCRCassetteReader.read(data, file: file, defaultDate: defaultDate, limits: limits)
        case .har: try HARReader.read(data, file: file, limits: limits)
        case .cassetter: try CassetterReader.read(data, file: file, defaultDate: defaultDate, limits: limits)
        }
    }

    /// The bytes of this cassette in `format`, and what that format cannot hold.
    public func encoded(as format: CassetteFormat) -> (data: Data, warnings: [ConversionWarning]) {
        if format == .native { return (CassetteCodec.encode(self), []) }
        let (held, lost) = heldBy(format)
        let (data, warnings) = switch format {
        case .native, .vcrYAML: VCRCassetteWriter.write(held)
        case .har: HARWriter.write(held)
        case .cassetter: CassetterWriter.write(held)
        }
        return (data, lost + warnings)
    }

    /// What of this cassette `format` can hold, and a warning for each thing it cannot: a
    /// recorded failure (vcrpy and cassetter have no place for one; it is left out) and, but in
    /// HAR, a WebSocket session's frames (only its handshake is written).
    private func heldBy(_ format: CassetteFormat) -> (Cassette, [ConversionWarning]) {
        var held = self
        var warnings: [ConversionWarning] = []
        var kept: [Interaction] = []
        for (index, interaction) in interactions.enumerated() {
            if let failure = interaction.failure {
                guard format == .har else {
                    warnings.append(ConversionWarning(interaction: index, field: "failure",
                                                      message: "a recorded failure (\(failure.kind.rawValue)) has no place in \(format.description); the interaction is left out"))
                    continue
                }
                if failure.kind != .aborted {
                    warnings.append(ConversionWarning(interaction: index, field: "failure",
                                                      message: "a recorded failure (\(failure.kind.rawValue)) is written as HAR's status 0, which reads back as an aborted request"))
                }
            }
            var copy = interaction
            if format != .har, let frames = interaction.response.webSocket, !frames.isEmpty {
                warnings.append(ConversionWarning(interaction: index, field: "response.webSocket",
                                                  message: "\(format.description) has no place for a WebSocket session's frames; its \(frames.count) frame\(frames.count == 1 ? " is" : "s are") left out, "
                                                      + "the handshake is kept"))
                copy.response.webSocket = nil
            }
            kept.append(copy)
        }
        held.interactions = kept
        return (held, warnings)
    }

    /// Writes this cassette in `format` atomically (temporary file, then rename) and returns
    /// what the format could not represent.
    ///
    /// ```swift
    /// let warnings = try cassette.write(to: URL(fileURLWithPath: "out.har"), format: .har)
    /// ```
    @discardableResult
    public func write(to url: URL, format: CassetteFormat) throws(InteropError) -> [ConversionWarning] {
        let (data, warnings) = encoded(as: format)
        do {
            try FileAccess.writeAtomically(data, to: url)
        } catch {
            throw .io(file: url.path, reason: "cannot be written (\(error.reason)); check that the directory is writable")
        }
        return warnings
    }
}

extension Cassette {
    /// ``loadWarnings`` as front-ends show them for the file at `url`, each led by its path:
    /// said of a HAR only, as it is read (a cassette that keeps such failures is not warned of
    /// each time it loads).
    package func loadWarnings(readFrom url: URL) -> [String] {
        CassetteFormat(for: url) == .har ? loadWarnings.map { "\(DisplayPath.relative(url.path)): \($0)" } : []
    }
}
