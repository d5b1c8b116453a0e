import Foundation

/// Field values both interop readers validate the same way.
enum FieldValue {
    /// A request method as another tool wrote it (any case for the common ones, else a token).
    static func method(_ text: String) -> HTTPMethod? {
        try? HTTPMethod(validating: text)
    }

    /// An absolute URL with a scheme and a host.
    static func absoluteURL(_ text: String) -> URL? {
        guard let url = PercentEncoding.url(text), url.scheme != nil, url.host != nil else { return nil }
        return url
    }
}
