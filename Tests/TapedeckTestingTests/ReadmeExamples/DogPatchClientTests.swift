import Foundation
import Synchronization
import struct Tapedeck.APIClientLogger   // for NetworkLog; the tests themselves need TapedeckTesting alone
import TapedeckTestSupport
import Testing
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The README shows these tests verbatim (ReadmeSnippetTests checks it).

@Suite("A DogPatch-style client, tested the way app developers already do")
struct DogPatchClientTests {
    @Test("loading the dogs sends exactly one GET to /dogs, with the API key")
    func oneRequest() async throws {
        let session = URLSession.stubbing { _ in .json(#"[{"id": 1, "name": "Rex", "breed": "Beagle"}]"#) }
        let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret")

        let dogs = try await client.dogs()

        #expect(dogs == [Dog(id: 1, name: "Rex", breed: "Beagle")])
        let sent = session.tapedeck.sentRequests(to: "/dogs", method: .get)
        #expect(sent.count == 1)
        #expect(sent.first?.url.query == "api_key=k3y-5ecret")
    }

    @Test("calls made while one is in flight share its request")
    func sharesInFlightRequest() async throws {
        let session = URLSession.stubbing { _ in .json("[]") }
        let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret")
        session.tapedeck.holdResponses()

        async let first = client.dogs()
        async let second = client.dogs()
        try await session.tapedeck.waitForRequests(1)   // the first request is out; its answer waits
        session.tapedeck.releaseResponses()
        _ = try await (first, second)

        #expect(session.tapedeck.sentRequests(to: "/dogs").count == 1)
    }

    @Test("no network is an error app code switches on")
    func offline() async throws {
        let session = URLSession.stubbing { _ in .failure(.notConnectedToInternet) }
        let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret")

        await #expect(throws: HTTPError.notConnected(url: "https://dogpatch.example/dogs?api_key=k3y-5ecret")) {
            try await client.dogs()
        }
    }

    @Test("the network log shows each call with the API key redacted")
    func logs() async throws {
        let log = NetworkLog()
        let session = URLSession.stubbing { _ in .json("[]") }
        let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret", logger: log.logger)

        _ = try await client.dogs()

        #expect(log.lines.first == "→ GET https://dogpatch.example/dogs?api_key=%3CREDACTED%3E")
        #expect(log.lines.last?.hasPrefix("← 200 OK https://dogpatch.example/dogs?api_key=%3CREDACTED%3E (") == true)
    }

    @Test("a photo goes up as multipart/form-data with the file's bytes, name and type")
    func uploadsPhoto() async throws {
        let photo = TestScratch.path("rex").appendingPathExtension("png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let session = URLSession.stubbing { _ in .status(201) }
        let client = try DogPatchClient(session: session, apiKey: "k3y-5ecret")

        try await client.upload(photo: photo, caption: "Rex at the beach", of: Dog(id: 1, name: "Rex", breed: "Beagle"))

        let sent = try #require(session.tapedeck.sentRequests(to: "/dogs/1/photos", method: .post).first)
        let contentType = try #require(sent.headers["Content-Type"])
        #expect(contentType.hasPrefix("multipart/form-data; boundary="))
        let body = try #require(sent.body)
        let parts = try MultipartParts(body, contentType: contentType)
        #expect(parts.text("caption") == "Rex at the beach")
        #expect(parts.file("photo") == .init(filename: photo.lastPathComponent, contentType: "image/png",
                                              data: Data([0x89, 0x50, 0x4E, 0x47])))
    }
}

/// Keeps what a client logged, as the lines `print` would show.
final class NetworkLog: Sendable {
    private let entries = Mutex<[String]>([])
    var lines: [String] { entries.withLock { $0 } }
    var logger: APIClientLogger { APIClientLogger { entry in self.entries.withLock { $0.append("\(entry)") } } }
}
