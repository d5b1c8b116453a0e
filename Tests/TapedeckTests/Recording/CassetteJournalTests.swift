import Foundation
import Testing
@testable import Tapedeck

@Suite("Cassette journal records")
struct CassetteJournalTests {
    static let first = Interaction.make(.get, "http://api.test/a", body: "a")
    static let second = Interaction.make(.get, "http://api.test/b", body: "b")

    static func interactions(_ contents: CassetteJournal.Contents) -> [String] {
        contents.records.compactMap { record in
            if case .interaction(let interaction, _) = record { return interaction.request.url.path }
            return nil
        }
    }

    @Test("records read back as the interactions and metadata written, in order")
    func roundTrip() throws {
        var data = CassetteJournal.record(Self.first, metadata: ["baseURL": "http://api.test"])
        data.append(CassetteJournal.record(Self.second, metadata: [:]))
        let contents = try CassetteJournal.read(data, path: "j")
        #expect(Self.interactions(contents) == ["/a", "/b"])
        #expect(contents.torn == 0)
        guard case .interaction(let interaction, let metadata) = contents.records.first else {
            Issue.record("the first record is not an interaction")
            return
        }
        #expect(interaction == Self.first)
        #expect(metadata == ["baseURL": "http://api.test"])
    }

    @Test("a record cut short at any byte is skipped and the records after it still read")
    func tornRecords() throws {
        let whole = CassetteJournal.record(Self.first, metadata: [:])
        for cut in stride(from: 1, to: whole.count, by: 7) {
            var data = whole.prefix(cut)
            data.append(CassetteJournal.record(Self.second, metadata: [:]))
            let contents = try CassetteJournal.read(Data(data), path: "j")
            #expect(Self.interactions(contents) == ["/b"], "cut at \(cut)")
            #expect(contents.torn == 1)
            #expect(try CassetteJournal.read(Data(whole.prefix(cut)), path: "j").records.isEmpty)
        }
    }

    @Test("bytes written after the last whole record are torn on their own, and the record before them stands")
    func trailingBytes() throws {
        var data = CassetteJournal.record(Self.first, metadata: [:])
        data.append(CassetteJournal.record(Self.second, metadata: [:]))
        data.append(Data("garbage\n".utf8))
        let contents = try CassetteJournal.read(data, path: "j")
        #expect(Self.interactions(contents) == ["/a", "/b"])
        #expect(contents.torn == 1)
    }

    @Test("a complete record that is not one Tapedeck wrote is an error naming the journal and the byte")
    func damagedRecord() throws {
        var data = CassetteJournal.record(Self.first, metadata: [:])
        let offset = data.count
        let payload = Data(#"{"version": 1}"#.utf8)
        data.append(Data([0x1E]) + Data("\(payload.count)\n".utf8) + payload)
        #expect {
            try CassetteJournal.read(data, path: "/tmp/x.cassette.json.journal")
        } throws: { error in
            let message = (error as? CassetteError)?.errorDescription ?? ""
            return message.hasPrefix("cannot read cassette /tmp/x.cassette.json.journal (record at byte \(offset)): ")
                && message.contains("interactions")
                && message.hasSuffix("move it aside to open the cassette without them, or repair the record")
        }
    }

    @Test("a replace record drops the file's interactions only when it names that very file")
    func replaces() throws {
        let stamp = try #require(CassetteFileStamp(text: "7:1767225600:5:120"))
        #expect(stamp.text == "7:1767225600:5:120")
        let records: [CassetteJournal.Record] = [.replaces(stamp, count: nil, digest: nil), .interaction(Self.second, metadata: ["k": "v"])]
        let file = Cassette(interactions: [Self.first], metadata: ["k": "old", "other": "kept"])
        let replaced = CassetteJournal.apply(records, to: file, stamp: stamp)
        #expect(replaced.interactions == [Self.second])
        #expect(replaced.metadata == ["k": "v", "other": "kept"])
        let rewritten = CassetteJournal.apply(records, to: file, stamp: CassetteFileStamp(text: "8:1767225600:5:120"))
        #expect(rewritten.interactions == [Self.first, Self.second], "another session rewrote the file since: keep it")
    }
}
