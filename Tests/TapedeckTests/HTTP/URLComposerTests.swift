import Foundation
import Testing
@testable import Tapedeck

@Suite("URL composition")
struct URLComposerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var base: String
        var path: String
        var query: [QueryItem] = []
        var expected: String
        var testDescription: String { "\(base) + \(path) → \(expected)" }
    }

    static let cases: [Case] = [
        Case(base: "http://h:8080/api", path: "users", expected: "http://h:8080/api/users"),
        Case(base: "http://h:8080/api/", path: "/users/", expected: "http://h:8080/api/users/"),
        Case(base: "http://h/api/v1", path: "../v2/x", expected: "http://h/api/v2/x"),
        Case(base: "http://h/a", path: "../../../x", expected: "http://h/x"),
        Case(base: "http://h/a", path: "./b/./c", expected: "http://h/a/b/c"),
        Case(base: "http://h", path: "", expected: "http://h/"),
        Case(base: "http://h/a", path: "a b/é", expected: "http://h/a/a%20b/%C3%A9"),
        Case(base: "http://h", path: "x%2Fy", expected: "http://h/x%2Fy"),
        Case(base: "http://h", path: "100%", expected: "http://h/100%25"),
        Case(base: "http://h", path: "p#frag", expected: "http://h/p"),
        Case(base: "http://h", path: "p?a=1&b=x y", expected: "http://h/p?a=1&b=x%20y"),
        Case(base: "http://h?k=1", path: "p", query: [QueryItem(name: "q", value: "2")], expected: "http://h/p?k=1&q=2"),
        Case(base: "http://h", path: "https://other:9/z", expected: "https://other:9/z"),
        Case(base: "http://h", path: "q", query: [
            QueryItem(name: "sp ace", value: "a b"), QueryItem(name: "plus", value: "1+1"),
            QueryItem(name: "amp", value: "a&b=c"), QueryItem(name: "slash", value: "/#%"),
            QueryItem(name: "é", value: "日本"), QueryItem(name: "emoji", value: "🎉"),
            QueryItem(name: "flag", value: nil),
        ], expected: "http://h/q?sp%20ace=a%20b&plus=1%2B1&amp=a%26b%3Dc&slash=%2F%23%25&%C3%A9=%E6%97%A5%E6%9C%AC&emoji=%F0%9F%8E%89&flag"),
    ]

    @Test("base + path + query compose to the exact encoded URL", arguments: cases)
    func compose(_ testCase: Case) throws {
        let base = try URLComposer.parseBase(testCase.base)
        let url = try URLComposer.compose(base: base, path: testCase.path, query: testCase.query)
        #expect(url.absoluteString == testCase.expected)
    }

    @Test("typed URLs keep escapes and encode what cannot appear in a URL")
    func parseBase() throws {
        #expect(try URLComposer.parseBase("http://h/a b?q=x y").absoluteString == "http://h/a%20b?q=x%20y")
        #expect(try URLComposer.parseBase("HTTPS://h/%41").absoluteString == "https://h/%41")
        #expect(try URLComposer.parseBase("http://[::1]:8080/x").absoluteString == "http://[::1]:8080/x")
        #expect(try URLComposer.parseBase("http://h/é").absoluteString == "http://h/%C3%A9")
        #expect(try URLComposer.parseBase("http://h/a?b=1#frag?x").absoluteString == "http://h/a?b=1", "the fragment is dropped, a ? in it is not a query")
        #expect(try URLComposer.parseBase("http://h#x/y").absoluteString == "http://h")
        #expect(try URLComposer.parseBase("http://h/ü/%zz?q=ä").absoluteString == "http://h/%C3%BC/%25zz?q=%C3%A4")
        // A password without a port is not read as a port.
        #expect(try URLComposer.parseBase("http://user:pw@127.0.0.1/x").absoluteString == "http://user:pw@127.0.0.1/x")
        #expect(try URLComposer.parseBase("http://user:pw@h:8080/x").port == 8080)
    }

    @Test("a bad port after a userinfo is named by host and port, the password never quoted")
    func portAfterUserinfo() {
        #expect(throws: HTTPError.self) { try URLComposer.parseBase("http://user:TIMEOUTPASS_4@h:99999/x") }
        do {
            _ = try URLComposer.parseBase("http://user:TIMEOUTPASS_4@h:99999/x")
        } catch {
            #expect(error.localizedDescription.contains("the port in 'h:99999'"), "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("TIMEOUTPASS_4"), "\(error.localizedDescription)")
        }
    }

    @Test("a password with a raw '/' is refused and never quoted, in whole or in part; a port and a path with '@' are not passwords")
    func rawSlashInPassword() throws {
        do {
            _ = try URLComposer.parseBase("http://user:pa/ss_SECRET9@h:8080/x")
            Issue.record("a raw '/' in a password is refused")
        } catch {
            #expect(error.localizedDescription.contains("write them as %2F"), "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("pa/ss") && !error.localizedDescription.contains("'user:pa'"), "\(error.localizedDescription)")
        }
        #expect(Redactor.shownURLText("http://user:pa/ss_SECRET9@h/x") == "http://user:%3CREDACTED%3E@h/x")
        #expect(Redactor.shownURLText("http://h:8080/users/a@b.test") == "http://h:8080/users/a@b.test")
        #expect(try URLComposer.parseBase("http://h:8080/users/a@b.test").path == "/users/a@b.test")
        #expect(try URLComposer.parseBase("http://user:pa%2Fss@h/x").password() == "pa%2Fss")
        // An '@' in the path is a path's: with a userinfo before it, or an IPv6 host.
        #expect(try URLComposer.parseBase("http://user:pw@127.0.0.1:8/@scope/pkg").path == "/@scope/pkg")
        #expect(try URLComposer.parseBase("http://[::1]:8/users/me@example.com").path == "/users/me@example.com")
        #expect(Redactor.shownURLText("http://user:pw@h/@scope/pkg") == "http://user:%3CREDACTED%3E@h/@scope/pkg")
        // A '?' or '#' in a password, and a URL typed without its scheme, are read the same way.
        for typed in ["http://user:pa?ss_SECRET9@h/x", "http://user:pa#ss_SECRET9@h/x", "user:s3cr/et_SECRET9@127.0.0.1:9/"] {
            #expect(!Redactor.shownURLText(typed).contains("SECRET9"), "\(Redactor.shownURLText(typed))")
            #expect(!Redactor.shownURLText(typed).contains("ss_") && !Redactor.shownURLText(typed).contains("et_"), "\(Redactor.shownURLText(typed))")
        }
        do {
            _ = try URLComposer.parseBase("user:s3cr/et_SECRET9@127.0.0.1:9/")
            Issue.record("a URL with no scheme is refused")
        } catch {
            #expect(error.localizedDescription.contains("it has no scheme") && !error.localizedDescription.contains("SECRET9"), "\(error.localizedDescription)")
        }
        do {
            _ = try URLComposer.parseBase("http://user:pa?ss_SECRET9@127.0.0.1:9/")
            Issue.record("a raw '?' in a password is refused")
        } catch {
            #expect(error.localizedDescription.contains("%3F") && !error.localizedDescription.contains("SECRET9"), "\(error.localizedDescription)")
        }
    }

    @Test("malformed and schemeless URLs are errors naming the input", arguments: [
        ("example.org/x", "has no scheme"),
        ("ftp://h/x", "scheme 'ftp'"),
        ("http://", "no host"),
        ("http://:80/x", "no host"),
        ("http://h:port/x", "port"),
        ("http://h:99999/x", "not a number from 1 to 65535"),
        ("http://h:0/x", "not a number from 1 to 65535"),
        ("http://a b/x", "contains a space"),
        ("", "empty"),
    ])
    func malformed(_ input: String, _ fragment: String) {
        do {
            let url = try URLComposer.parseBase(input)
            Issue.record("expected an error for '\(input)', got \(url)")
        } catch {
            let message = error.localizedDescription
            #expect(message.contains("'\(input)'"), "\(message)")
            #expect(message.contains(fragment), "\(message)")
        }
    }

    @Test("a relative path without a base names the path and says to set a base or give a full URL")
    func relativeWithoutBase() throws {
        let error = try #require(throws: HTTPError.self) { try URLComposer.compose(base: nil, path: "users") }
        #expect(error == .invalidURL(input: "users", reason: "it is relative and no base URL is set; set a base URL or give a full URL"))
        #expect(error.localizedDescription == "cannot build a URL from 'users': it is relative and no base URL is set; "
            + "set a base URL or give a full URL")
    }

    @Test("normalize resolves dot segments and keeps a trailing slash", arguments: [
        ("/a/b/../c", "/a/c"), ("/a/./b/", "/a/b/"), ("/../..", "/"), ("a//b", "/a/b"), ("/a/..", "/"), ("", "/"),
    ])
    func normalize(_ input: String, _ expected: String) {
        #expect(URLComposer.normalize(path: input) == expected)
    }

    @Test("percent-decoding is the inverse of query encoding for tricky text")
    func roundTrip() {
        for text in ["a b", "1+1", "a&b=c", "/#%", "é日本🎉", "%zz", "~-._"] {
            #expect(PercentEncoding.decode(PercentEncoding.encodeQueryComponent(text)) == text)
        }
    }
}
