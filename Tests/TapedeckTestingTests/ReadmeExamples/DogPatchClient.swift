import Foundation
import Tapedeck
import TapedeckTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The DogPatch-style client the README tests: its code is shown there verbatim
// (ReadmeSnippetTests checks it).

struct Dog: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var breed: String
}

/// The dogs API client an app would write on Endpoint and APIClient.
actor DogPatchClient {
    private let api: APIClient
    private var dogsInFlight: Task<[Dog], any Error>?

    init(session: URLSession, apiKey: String, logger: APIClientLogger? = nil) throws {
        api = try APIClient(baseURL: "https://dogpatch.example", transport: URLSessionTransport(session: session),
                            defaultQuery: [QueryItem(name: "api_key", value: apiKey)], logger: logger)
    }

    /// The dogs for sale; calls made while one is in flight share its request.
    func dogs() async throws -> [Dog] {
        if let running = dogsInFlight { return try await running.value }
        let request = Task { try await api.send(Endpoint<[Dog]>(path: "dogs")) }
        dogsInFlight = request
        defer { dogsInFlight = nil }
        return try await request.value
    }

    /// Uploads a photo of a dog as multipart/form-data.
    func upload(photo: URL, caption: String, of dog: Dog) async throws {
        let parts = [MultipartPart.field(name: "caption", value: caption), try .file(name: "photo", contentsOf: photo)]
        let endpoint = Endpoint<NoContent>(method: .post, path: "dogs/\(dog.id)/photos", body: .multipart(parts),
                                           acceptedStatus: 201..<202)
        _ = try await api.send(endpoint)
    }
}
