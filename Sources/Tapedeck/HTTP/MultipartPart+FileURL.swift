import Foundation

extension MultipartPart {
    /// A file part read from a file URL (what a document picker or `FileManager` hands app
    /// code): file name from the URL, content type from its extension unless given.
    ///
    /// ```swift
    /// let endpoint = Endpoint<NoContent>(method: .post, path: "dogs/1/photos", body: .multipart([
    ///     .field(name: "caption", value: "Rex at the beach"),
    ///     try .file(name: "photo", contentsOf: photoURL),
    /// ]))
    /// ```
    public static func file(name: String, contentsOf url: URL, filename: String? = nil,
                            contentType: String? = nil) throws(HTTPError) -> MultipartPart {
        guard url.isFileURL else {
            throw .fileUnreadable(path: url.absoluteString, reason: "it is not a file URL; download it first or pass its bytes with MultipartPart(name:filename:contentType:data:)")
        }
        return try file(name: name, path: url.path, filename: filename, contentType: contentType)
    }
}
