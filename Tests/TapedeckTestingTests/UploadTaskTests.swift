import Foundation
import Testing
@testable import Tapedeck
import TapedeckTestSupport
@testable import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSession upload tasks through Tapedeck sessions")
struct UploadTaskTests {
    static let body = Data(#"{"name":"Ada","bytes":"\u00ff"}"#.utf8) + Data([0x00, 0xFE, 0xFF])

    private func uploadRequest(_ path: String = "/upload") -> URLRequest {
        var request = URLRequest(url: URL(string: "http://api.test" + path)!)
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        return request
    }

    /// Answers every request with its own body, so the caller sees what the server saw.
    private static let echo = StubTransport { request in
        HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body ?? Data())
    }

    @Test("upload(for:from:) and upload(for:fromFile:) record their bodies, not an empty one, and replay matches on them")
    func recordsUploadBodies() async throws {
        let directory = TestScratch.path("tapedeck-upload")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cassette = directory.appendingPathComponent("upload.cassette.json")
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(cassette, mode: .all, environment: [:]), inner: Self.echo)
        let session = URLSession.recording(recorder)
        let (echoed, _) = try await session.upload(for: uploadRequest(), from: Self.body)
        #expect(echoed == Self.body, "the server got the body")
        let file = directory.appendingPathComponent("payload.bin")
        try Data("from a file".utf8).write(to: file)
        let (fromFile, _) = try await session.upload(for: uploadRequest("/file"), fromFile: file)
        #expect(fromFile == Data("from a file".utf8))
        try recorder.flush()

        let recorded = try Cassette.load(from: cassette)
        #expect(recorded.interactions.map { $0.request.body } == [Self.body, Data("from a file".utf8)])

        let replay = URLSession.replaying(ReplayTransport(cassette: recorded, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .raw))))
        let (replayed, response) = try await replay.upload(for: uploadRequest(), from: Self.body)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(replayed == Self.body)
        await #expect(throws: (any Error).self, "a different body does not match") {
            _ = try await replay.upload(for: uploadRequest("/file"), from: Data("another body".utf8))
        }
    }

    @Test("a stubbing session's handler sees an upload's body")
    func stubSeesUploadBody() async throws {
        let session = URLSession.stubbing { request in
            request.httpBody == UploadTaskTests.body ? .status(201) : .status(400)
        }
        let (_, response) = try await session.upload(for: uploadRequest(), from: Self.body)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
    }

    @Test("an upload whose body cannot be read fails with an error naming data(for:) instead of recording an empty body")
    func hiddenBodyFails() throws {
        let session = URLSession(configuration: .ephemeral)
        let streamed = session.uploadTask(withStreamedRequest: uploadRequest())
        defer { streamed.cancel() }
        let result = try #require(UploadBody.read(from: streamed, request: uploadRequest()))
        guard case .failure(let error) = result else {
            Issue.record("a streamed upload's body was read as \(result)")
            return
        }
        #expect(error.localizedDescription.contains("PUT http://api.test/upload"))
        #expect(error.localizedDescription.contains("send it with data(for:) and request.httpBody"))
        #expect(UploadBody.read(from: session.dataTask(with: uploadRequest()), request: uploadRequest()) == nil, "data tasks are left alone")
    }
}
