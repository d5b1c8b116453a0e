import Foundation
import Testing
@testable import Tapedeck

@Suite("Cassette store: journal, merge and recovery")
struct CassetteStoreTests {
    static func item(_ index: Int) -> Interaction { .make(.get, "http://api.test/item/\(index)", body: "\(index)") }

    static func names(_ directory: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
    }

    @Test("an append grows the journal by one record and leaves the cassette file alone until flush")
    func appendThenFlush() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [Self.item(0)]).write(to: url)
        let before = try Data(contentsOf: url)
        let store = try CassetteStore(url: url, metadata: ["baseURL": "http://api.test"])
        try store.append(Self.item(1))
        let journal = CassetteJournal.url(for: url)
        let oneRecord = try Data(contentsOf: journal).count
        try store.append(Self.item(2))
        #expect(try Data(contentsOf: journal).count > oneRecord)
        #expect(try Data(contentsOf: url) == before, "the cassette is not rewritten per interaction")
        #expect(store.count == 3)

        try store.flush()
        #expect(try Self.names(directory) == ["api.cassette.json"])
        let saved = try Cassette.loadFile(from: url)
        #expect(saved.interactions == [Self.item(0), Self.item(1), Self.item(2)])
        #expect(saved.metadata == ["baseURL": "http://api.test"])
        #expect(try Data(contentsOf: url) == saved.encoded(), "the merged file is the deterministic encoding")
    }

    @Test("a journal left by a killed session is merged on the next open, and by Cassette.load")
    func recoversOnOpen() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        var journal = CassetteJournal.record(Self.item(0), metadata: [:]) + CassetteJournal.record(Self.item(1), metadata: [:])
        journal.append(CassetteJournal.record(Self.item(2), metadata: [:]).prefix(40))
        try journal.write(to: CassetteJournal.url(for: url))

        let store = try CassetteStore(url: url)
        #expect(store.opened?.interactions == [Self.item(0), Self.item(1)], "the torn third record is dropped")
        #expect(try Self.names(directory) == ["api.cassette.json"])

        try (CassetteJournal.record(Self.item(3), metadata: [:])).write(to: CassetteJournal.url(for: url))
        #expect(try Cassette.load(from: url).interactions.count == 3)
        #expect(try Self.names(directory) == ["api.cassette.json"])
    }

    @Test("an orphaned temporary file from a merge killed mid-write is removed on open, and the cassette is intact")
    func orphanedTemporaryFile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [Self.item(0)]).write(to: url)
        try Data("{\"interactions\": [".utf8).write(to: CassetteMerge.temporaryURL(for: url))

        let store = try CassetteStore(url: url)
        #expect(store.opened?.interactions == [Self.item(0)])
        #expect(try Self.names(directory) == ["api.cassette.json"])
    }

    @Test("a merge killed between its renames is completed on open, without repeating the journal")
    func interruptedMerge() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [Self.item(0)]).write(to: url)
        try Cassette(interactions: [Self.item(0), Self.item(1)]).encoded().write(to: CassetteMerge.temporaryURL(for: url))
        try CassetteJournal.record(Self.item(1), metadata: [:]).write(to: CassetteMerge.mergedJournalURL(for: url))

        #expect(try Cassette.load(from: url).interactions == [Self.item(0), Self.item(1)])
        #expect(try Self.names(directory) == ["api.cassette.json"])
    }

    @Test("a merge another process was killed in the middle of is completed by this session's flush, and nothing it held is lost")
    func interruptedMergeThenFlush() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [Self.item(0)]).write(to: url)
        let store = try CassetteStore(url: url)
        // Another process merged item 1 and was killed between its renames.
        try Cassette(interactions: [Self.item(0), Self.item(1)]).encoded().write(to: CassetteMerge.temporaryURL(for: url))
        try CassetteJournal.record(Self.item(1), metadata: [:]).write(to: CassetteMerge.mergedJournalURL(for: url))
        try store.append(Self.item(2))
        try store.flush()
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(0), Self.item(1), Self.item(2)])
        #expect(try Self.names(directory) == ["api.cassette.json"])
    }

    @Test("a cassette named through a link is the file it links to: that file is written, and the link stays a link")
    func cassetteThroughLink() throws {
        let directory = TemporaryDirectory()
        let real = directory.file("real/api.cassette.json")
        try FileManager.default.createDirectory(at: real.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Cassette(interactions: [Self.item(0)]).write(to: real)
        let link = directory.file("link.cassette.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let store = try CassetteStore(url: link)
        try store.append(Self.item(1))
        try store.flush()
        #expect(try Cassette.loadFile(from: real).interactions == [Self.item(0), Self.item(1)])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
    }

    @Test("a journal that leaves no interaction (a stream begun and dropped) makes no cassette file")
    func nothingLeftMakesNoFile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let store = try CassetteStore(url: url)
        try store.beginStream(Self.item(0), stream: "s1")
        try store.dropStream("s1")
        try store.flush()
        let names = try Self.names(directory)
        #expect(names.isEmpty, "\(names)")
    }

    @Test("a link left where the merge writes its temporary file is not followed")
    func temporaryLinkNotFollowed() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let victim = directory.file("victim.txt")
        try Data("original\n".utf8).write(to: victim)
        let store = try CassetteStore(url: url)
        try store.append(Self.item(0))
        try FileManager.default.createSymbolicLink(at: CassetteMerge.temporaryURL(for: url), withDestinationURL: victim)
        try store.flush()
        #expect(try String(contentsOf: victim, encoding: .utf8) == "original\n")
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(0)])
        let kind = try FileManager.default.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }

    @Test("two stores on one cassette keep each other's interactions whichever flushes first")
    func twoStores() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let a = try CassetteStore(url: url)
        let b = try CassetteStore(url: url)
        try a.append(Self.item(0))
        try b.append(Self.item(1))
        try a.flush()
        try a.append(Self.item(2))
        try b.flush()
        try a.flush()
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(0), Self.item(1), Self.item(2)])
        #expect(a.cassette.interactions.count == 3)
    }

    @Test("replacing drops what the file held at open, but not what another session merged since")
    func replacing() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        try Cassette(interactions: [Self.item(0)]).write(to: url)
        let replacing = try CassetteStore(url: url, replacing: true)
        try replacing.append(Self.item(1))
        try replacing.flush()
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(1)])

        let again = try CassetteStore(url: url, replacing: true)
        let other = try CassetteStore(url: url)
        try other.append(Self.item(2))
        try other.flush()
        try again.append(Self.item(3))
        try again.flush()
        // Item 1 was what the file held when `again` opened it; item 2 came after.
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(2), Self.item(3)])

        // A record from before the count and digest were kept still replaces by the stamp alone.
        let stamp = try #require(CassetteFileStamp.current(url))
        var journal = CassetteJournal.replacesRecord(stamp)
        journal.append(CassetteJournal.record(Self.item(4), metadata: [:]))
        try journal.write(to: CassetteJournal.url(for: url))
        #expect(try Cassette.load(from: url).interactions == [Self.item(4)])
    }

    @Test("a session appending after another merged the journal away starts a new journal, and nothing either appended is lost")
    func journalMergedAwayBetweenAppends() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let first = try CassetteStore(url: url)
        let second = try CassetteStore(url: url)
        try first.append(Self.item(1))
        try second.append(Self.item(2))
        // The merge renames the journal both appended to and removes it.
        try second.flush()
        #expect(try Self.names(directory) == ["api.cassette.json"])
        for index in 3...5 { try first.append(Self.item(index)) }
        #expect(try Self.names(directory) == ["api.cassette.json", "api.cassette.json.journal"], "the next append made a new journal")
        try first.flush()
        #expect(try Cassette.loadFile(from: url).interactions.map(\.request.url.lastPathComponent) == ["1", "2", "3", "4", "5"])

        // Another file coming and going in the folder only sends the next append the long way.
        try first.append(Self.item(6))
        try Data("x".utf8).write(to: directory.file("other.txt"))
        try FileManager.default.removeItem(at: directory.file("other.txt"))
        try first.append(Self.item(7))
        try first.flush()
        #expect(try Cassette.loadFile(from: url).interactions.count == 7)
    }

    @Test("releasing a store merges its journal")
    func releaseMerges() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        do {
            let store = try CassetteStore(url: url)
            try store.append(Self.item(0))
        }
        #expect(try Self.names(directory) == ["api.cassette.json"])
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(0)])
    }

    @Test("with journaling off, nothing reaches the disk before flush")
    func heldUntilFlush() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("api.cassette.json")
        let store = try CassetteStore(url: url, options: .init(journalEachInteraction: false, syncEachInteraction: true))
        try store.append(Self.item(0))
        #expect(try Self.names(directory).isEmpty)
        try store.flush()
        #expect(try Cassette.loadFile(from: url).interactions == [Self.item(0)])
    }

    @Test("a cassette in a directory that does not exist yet is created by the first append")
    func createsDirectory() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("deep/er/api.cassette.json")
        let store = try CassetteStore(url: url)
        #expect(store.opened == nil)
        #expect(!FileManager.default.fileExists(atPath: url.deletingLastPathComponent().path), "opening creates nothing")
        try store.append(Self.item(0))
        try store.flush()
        #expect(try Cassette.loadFile(from: url).interactions.count == 1)
    }
}
