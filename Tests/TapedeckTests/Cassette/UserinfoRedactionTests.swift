import Foundation
@testable import Tapedeck
import Testing

@Suite("URL userinfo is a secret")
struct UserinfoRedactionTests {
    @Test("a URL's password is replaced in what is recorded and learned as a secret, the user kept")
    func password() {
        let request = HTTPRequest(url: URL(string: "http://alice:PW-s3cret-123@api.test/x?page=2")!)
        let (redacted, secrets) = Redactor.standard.redact(request, knownSecrets: [])
        #expect(redacted.url.absoluteString == "http://alice:%3CREDACTED%3E@api.test/x?page=2")
        #expect(secrets.contains("PW-s3cret-123"))
        #expect(Redactor.redactingPassword(URL(string: "http://api.test/")!).absoluteString == "http://api.test/")
    }
}
