import Foundation
import Testing
@testable import Tapedeck

/// The spliced merge writes exactly what decoding the file and the journal, applying the
/// records and encoding again writes, and declines what it cannot copy safely.
@Suite("Cassette splice: merging a journal as bytes")
struct CassetteSpliceTests {
    static let stamp = CassetteFileStamp(text: "1234:1767225600:0:5120")!

    /// Interactions of every shape the codec writes differently: JSON, text, binary and empty
    /// bodies, escapes and non-ASCII, a request body, a recorded failure.
    static func varied(_ offset: Int) -> [Interaction] {
        var binary = Interaction.make(.get, "http://api.test/blob/\(offset)", headers: ["Content-Type": "application/octet-stream"], body: "")
        binary.response.body = Data([0, 1, 2, 0xFF, UInt8(offset % 256)])
        var failed = Interaction.make(.get, "http://down.test/\(offset)")
        failed.failure = TransportFailure(kind: .cannotConnect, detail: "refused")
        // A recorded failure has no response: as stored, it reads back with an empty one.
        failed = (try? CassetteCodec.decode(CassetteCodec.encode(Cassette(interactions: [failed]))))?.interactions.first ?? failed
        // A Content-Length that no longer matches its body (a hook changed the body) is written true.
        var stale = Interaction.make(.get, "http://api.test/stale/\(offset)", body: "{}")
        stale.response.headers["Content-Length"] = "512"
        return [
            stale,
            .make(.get, "http://api.test/items/\(offset)?q=a%20b", body: #"{"name":"Zoë \"quoted\" \\ \/","n":[1,2,3],"nested":{"a":null}}"#),
            .make(.post, "http://api.test/login", requestHeaders: ["Content-Type": "application/json"],
                  requestBody: Data(#"{"user":"ann"}"#.utf8), headers: ["Content-Type": "text/plain; charset=utf-8"], body: "line one\nline two\t✓"),
            .make(.delete, "http://api.test/items/\(offset)", status: 204, headers: [:], body: ""),
            binary,
            failed,
        ]
    }

    /// What the decoding merge writes for `file` and `journal`.
    static func decoded(file: Data?, journal: Data, finishing: CassetteFinishing? = nil) throws -> Data {
        let cassette = try file.map { try CassetteCodec.decode($0) } ?? Cassette()
        var merged = CassetteJournal.apply(try CassetteJournal.read(journal, path: "j").records, to: cassette, stamp: stamp)
        if let finishing { merged = finishing.apply(merged, secrets: finishing.secrets()) }
        return CassetteCodec.encode(merged)
    }

    static func spliced(file: Data?, journal: Data, finishing: CassetteFinishing? = nil) -> CassetteSplice.Merged? {
        CassetteSplice.merge(file: file.map { [UInt8]($0) }, journal: [UInt8](journal), stamp: stamp, finishing: finishing)
    }

    static func journal(_ interactions: [Interaction], metadata: [String: String] = ["baseURL": "http://api.test"]) -> Data {
        interactions.reduce(into: Data()) { $0.append(CassetteJournal.record($1, metadata: metadata)) }
    }

    @Test("into no file, into an empty one and into one with interactions and metadata, the bytes are the decoding merge's")
    func sameBytes() throws {
        let journal = Self.journal(Self.varied(1) + Self.varied(2), metadata: ["baseURL": "http://api.test", "note": "→ second"])
        let files: [Data?] = [
            nil,
            CassetteCodec.encode(Cassette()),
            CassetteCodec.encode(Cassette(interactions: Self.varied(0), metadata: ["baseURL": "http://old.test", "kept": "yes"])),
        ]
        for file in files {
            let merged = try #require(Self.spliced(file: file, journal: journal))
            #expect(merged.data == (try Self.decoded(file: file, journal: journal)),
                    "\(String(decoding: merged.data, as: UTF8.self))")
            #expect(merged.count == (try CassetteCodec.decode(merged.data)).interactions.count)
        }
    }

    @Test("a replace record for this very file drops the file's interactions, one for another file keeps them")
    func replacing() throws {
        let file = CassetteCodec.encode(Cassette(interactions: Self.varied(0)))
        for stamp in [Self.stamp, try #require(CassetteFileStamp(text: "9:9:9:9"))] {
            var journal = CassetteJournal.replacesRecord(stamp)
            journal.append(Self.journal(Self.varied(1)))
            let merged = try #require(Self.spliced(file: file, journal: journal))
            #expect(merged.data == (try Self.decoded(file: file, journal: journal)))
            #expect(merged.count == (stamp == Self.stamp ? 6 : 12))
        }
    }

    @Test("a secret learned after an interaction carried it is scrubbed from it, in the file and the journal alike")
    func learnedSecrets() throws {
        let token = "tok_live_4242abcd"
        let early = Interaction.make(.get, "http://api.test/sessions/\(token)?next=\(token)", body: #"{"echo":"\#(token)"}"#)
        let later = Interaction.make(.get, "http://api.test/items", requestHeaders: ["Authorization": "Bearer <REDACTED>"])
        let journal = Self.journal([early, later] + Self.varied(3))
        let finishing = CassetteFinishing(secrets: { [token] })
        let merged = try #require(Self.spliced(file: nil, journal: journal, finishing: finishing))
        #expect(merged.data == (try Self.decoded(file: nil, journal: journal, finishing: finishing)))
        #expect(!String(decoding: merged.data, as: UTF8.self).contains(token))

        // In the file the splice cannot tell which interaction holds it: the decoding merge does it.
        let file = CassetteCodec.encode(Cassette(interactions: [early]))
        #expect(Self.spliced(file: file, journal: Self.journal([later]), finishing: finishing) == nil)
        // With nothing learned, nothing is decoded.
        #expect(Self.spliced(file: file, journal: journal, finishing: CassetteFinishing(secrets: { [] })) != nil)
    }

    @Test("streams journaled chunk by chunk, a file laid out by hand and a record it does not know are left to the decoder")
    func declines() throws {
        let journal = Self.journal(Self.varied(1))
        let chunk = CassetteJournal.chunkRecord(BodyChunk(offset: 0.1, data: Data("data: 1\n\n".utf8)), stream: "s")
        #expect(Self.spliced(file: nil, journal: journal + chunk) == nil)
        let head = CassetteJournal.record(Self.varied(1)[0], metadata: [CassetteJournal.streamKey: "s"])
        #expect(Self.spliced(file: nil, journal: head) == nil)

        let compact = Data(JSONWriter.write(try JSONParser.parse(CassetteCodec.encode(Cassette(interactions: Self.varied(0)))), options: []) as Data)
        #expect(Self.spliced(file: compact, journal: journal) == nil)

        let decimalVersion = String(decoding: CassetteCodec.encode(Cassette(interactions: Self.varied(0))), as: UTF8.self)
            .replacingOccurrences(of: "\"version\": 1", with: "\"version\": 1.0")
        #expect(Self.spliced(file: Data(decimalVersion.utf8), journal: journal) == nil, "a version loading refuses is left to the decoder")

        var odd = Data([CassetteJournal.separator])
        let payload = Data("{\n  \"interactions\": [\n    {}\n  ],\n  \"version\": 99\n}\n".utf8)
        odd.append(Data("\(payload.count)\n".utf8))
        odd.append(payload)
        #expect(Self.spliced(file: nil, journal: odd) == nil)
    }

    @Test("a store's flush splices: the file is what loading reads, and the count is the file's")
    func storeFlush() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: Self.varied(0)).write(to: url)
        let store = try CassetteStore(url: url, metadata: ["baseURL": "http://api.test"])
        for interaction in Self.varied(1) { try store.append(interaction) }
        #expect(store.cassette.interactions.count == 12, "the journal is read when the cassette is asked for")
        try store.flush()
        #expect(store.count == 12)
        let saved = try Cassette.loadFile(from: url)
        #expect(saved.interactions.map(\.request.url) == (Self.varied(0) + Self.varied(1)).map(\.request.url))
        #expect(saved.interactions[0].response.headers["Content-Length"] == "2")
        #expect(saved.metadata["baseURL"] == "http://api.test")
        #expect(store.cassette == saved)
    }

    @Test("a file changed behind the session is decoded before anything is added: a broken edit is refused and the journal kept")
    func changedBehind() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: Self.varied(0)).write(to: url)
        let store = try CassetteStore(url: url)
        try store.append(Self.varied(1)[1])
        let edited = String(decoding: try Data(contentsOf: url), as: UTF8.self).replacingOccurrences(of: "\"status\": 204", with: "\"status\": \"x\"")
        try Data(edited.utf8).write(to: url)
        #expect(throws: CassetteError.self) { try store.flush() }
        #expect(FileManager.default.fileExists(atPath: CassetteJournal.url(for: url).path), "the journal keeps what was recorded")
    }

    @Test("with autosave off, interactions not yet journaled are part of the cassette the store gives")
    func pendingShown() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let store = try CassetteStore(url: url, options: .init(journalEachInteraction: false))
        try store.append(Self.varied(0)[1])
        try store.flush()
        try store.append(Self.varied(0)[2])
        #expect(store.cassette.interactions.map(\.request.url) == [Self.varied(0)[1], Self.varied(0)[2]].map(\.request.url))
        #expect(store.count == 2)
    }

    @Test("a cassette giving \"interactions\" twice reads the last, as any JSON object read here does")
    func duplicateKey() throws {
        let a = String(decoding: CassetteCodec.encode(Cassette(interactions: [Self.varied(0)[1]])), as: UTF8.self)
        let b = String(decoding: CassetteCodec.encode(Cassette(interactions: [Self.varied(0)[2]])), as: UTF8.self)
        let twice = "{\"interactions\": " + a.split(separator: "\"interactions\": ", maxSplits: 1)[1].split(separator: ",\n  \"version\"")[0]
            + ", \"interactions\": " + b.split(separator: "\"interactions\": ", maxSplits: 1)[1]
        #expect(try CassetteCodec.decode(Data(twice.utf8)).interactions.map(\.request.url) == [Self.varied(0)[2].request.url])
    }
}
