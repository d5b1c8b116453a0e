import Foundation
import TapedeckTestSupport
import Testing
import Tapedeck
@testable import TapedeckShell

@Suite("Request items")
struct RequestItemsTests {
    private func parse(_ items: String...) throws -> RequestItems {
        try RequestItems.parse(items, baseDirectory: nil)
    }

    private func jsonText(_ items: RequestItems) throws -> String {
        guard case .json(let value)? = try items.body(mode: .json) else {
            Issue.record("expected a JSON body")
            return ""
        }
        return JSONWriter.write(value, options: [])
    }

    @Test("each separator makes the right kind of item")
    func kinds() throws {
        let items = try parse("X-Trace:abc", "q==swift", "name=Ada", "age:=36", "Empty;", "Blank:")
        #expect(items.headers.fields == [
            HTTPHeader(name: "X-Trace", value: "abc"),
            HTTPHeader(name: "Empty", value: ""),
            HTTPHeader(name: "Blank", value: ""),
        ])
        #expect(items.query == [QueryItem(name: "q", value: "swift")])
        #expect(try jsonText(items) == #"{"name":"Ada","age":36}"#)
        #expect(items.impliedMethod == .post)
    }

    @Test("GET is implied without body items, POST with them")
    func impliedMethod() throws {
        #expect(try parse("Accept:text/plain", "a==1").impliedMethod == .get)
        #expect(try parse("a=1").impliedMethod == .post)
        var raw = RequestItems()
        raw.rawBody = Data("x".utf8)
        #expect(raw.impliedMethod == .post)
    }

    @Test("the leftmost separator wins and longer separators win at the same place")
    func precedence() throws {
        let items = try parse("Authorization:Bearer a=b:c", "url==http://x/?a=b", "t=a:=b", "j:=\"x=y\"")
        #expect(items.headers["Authorization"] == "Bearer a=b:c")
        #expect(items.query == [QueryItem(name: "url", value: "http://x/?a=b")])
        #expect(items.fields.map(\.value) == [.string("a:=b"), .string("x=y")])
    }

    @Test("a backslash escapes separators in names")
    func escaping() throws {
        let items = try parse(#"a\=b=c"#, #"x\:y==1"#, #"p\[0\]=v"#)
        #expect(items.fields.map(\.name) == ["a=b", "p[0]"])
        #expect(items.query == [QueryItem(name: "x:y", value: "1")])
        #expect(try jsonText(items) == #"{"a=b":"c","p[0]":"v"}"#)
    }

    @Test("nested names build nested JSON in typed order")
    func nested() throws {
        let items = try parse("user[name]=Ada", "user[langs][]=en", "user[langs][]=fr", "pts[1][x]:=2", "n:=null")
        #expect(try jsonText(items) == #"{"user":{"name":"Ada","langs":["en","fr"]},"pts":[null,{"x":2}],"n":null}"#)
    }

    @Test("a repeated flat name collects its values in an array")
    func repeated() throws {
        #expect(try jsonText(try parse("a=1", "a=2", "a=3")) == #"{"a":["1","2","3"]}"#)
    }

    @Test("nested names that clash with earlier items are errors naming the item")
    func clash() throws {
        let items = try parse("a=1", "a[b]=2")
        #expect(throws: RequestItemError.invalidJSONPath(item: "a[b]=2", reason: "cannot put 'b' into the string an earlier item set")) {
            try items.body(mode: .json)
        }
        #expect(throws: RequestItemError.self) { try parse("a[b=1") }
    }

    @Test("a flat name after a nested one of the same name is an error, not a duplicate JSON key")
    func flatAfterNested() throws {
        let reason = "'a' already holds the object an earlier nested item built; set it whole (a:=…) or by parts (a[…]=…), not both"
        #expect(throws: RequestItemError.invalidJSONPath(item: "a:=2", reason: reason)) {
            try parse("a[x]=1", "a:=2").body(mode: .json)
        }
        #expect(throws: RequestItemError.self) { try parse("tags[]=x", "tags=y").body(mode: .json) }
        #expect(try jsonText(try parse("a[x]=1", "b=2", "a[y]=3")) == #"{"a":{"x":"1","y":"3"},"b":"2"}"#)
    }

    @Test("invalid raw JSON names the item, the column and the fix")
    func invalidJSON() throws {
        do {
            _ = try parse("a:=not json")
            Issue.record("expected an error")
        } catch {
            let message = error.localizedDescription
            #expect(message.contains("'a:=not json'"))
            #expect(message.contains("column 1"))
            #expect(message.contains("quote strings"))
        }
    }

    @Test("bad header names and bare words are errors with the fix")
    func badItems() throws {
        #expect(throws: RequestItemError.invalidHeaderName(item: "bad name:x", name: "bad name")) { try parse("bad name:x") }
        #expect(throws: RequestItemError.noSeparator(item: "hello")) { try parse("hello") }
        #expect(throws: RequestItemError.emptyName(item: "=x")) { try parse("=x") }
        #expect(throws: RequestItemError.queryAsItem(item: "?page=3&q=a")) { try parse("?page=3&q=a") }
        // A misspelled option is refused, not sent as a field (which would make a GET a POST).
        for typo in ["--verify=no", "--timeot=5", "-a:b"] {
            #expect(throws: RequestItemError.looksLikeOption(item: typo)) { try parse(typo) }
        }
        #expect(RequestItemError.looksLikeOption(item: "--verify=no").localizedDescription.contains("check the spelling of --verify"))
        #expect(RequestItemError.emptyName(item: "@j.json").localizedDescription.contains("redirect it: < j.json"))
        #expect(RequestItemError.invalidHeaderValue(item: "X-U:a\r\nEvil: 1").localizedDescription.hasPrefix(#"'X-U:a\r\nEvil: 1'"#))
        #expect(RequestItemError.queryAsItem(item: "?page=3&q=a").localizedDescription
            == "'?page=3&q=a' is a query, not a body field; write it as page==3 q==a or put it in the URL (/path?page=3&q=a)")
        #expect(throws: RequestItemError.textAfterEmptyHeader(item: "A;b")) { try parse("A;b") }
        let message = RequestItemError.noSeparator(item: "hello").localizedDescription
        #expect(message.contains("Name:value") && message.contains("name==value"))
    }

    @Test("files are read relative to the base directory, with type from extension or ;type=")
    func files() throws {
        let directory = try TemporaryDirectory()
        try Data("hello".utf8).write(to: directory.url.appendingPathComponent("note.txt"))
        try Data(#"{"k":[1,2]}"#.utf8).write(to: directory.url.appendingPathComponent("v.json"))
        try Data([0xFF, 0xFE]).write(to: directory.url.appendingPathComponent("blob.bin"))
        let items = try RequestItems.parse(
            ["doc@note.txt", "img@blob.bin;type=image/png", "text=@note.txt", "obj:=@v.json"],
            baseDirectory: directory.url)
        #expect(items.files.map(\.filename) == ["note.txt", "blob.bin"])
        #expect(items.files.map(\.contentType) == ["text/plain", "image/png"])
        #expect(items.files[0].data == Data("hello".utf8))
        #expect(items.fields.map(\.value) == [.string("hello"), .object([("k", [1, 2])])])
        #expect(throws: RequestItemError.fileNotText(item: "t=@blob.bin", path: "blob.bin")) {
            try RequestItems.parse(["t=@blob.bin"], baseDirectory: directory.url)
        }
    }

    @Test("a missing file is an error naming the item and the path")
    func missingFile() throws {
        #expect(throws: RequestItemError.fileUnreadable(item: "f@/nope/x.png", path: "/nope/x.png", reason: "no such file")) {
            try parse("f@/nope/x.png")
        }
        #expect(throws: RequestItemError.fileUnreadable(item: "f=@/tmp", path: "/tmp", reason: "it is a directory")) {
            try parse("f=@/tmp")
        }
    }
}

/// A directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = try TestScratch.directory("tapedeck-items")
    }
    deinit { try? FileManager.default.removeItem(at: url) }
}
