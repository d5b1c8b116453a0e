import Tapedeck
import Testing
@testable import TapedeckShell

@Suite("JSONPath: why a path selects nothing")
struct JSONPathMissingTests {
    let document: JSONValue

    init() throws {
        document = try JSONParser.parse(#"{"slideshow": {"author": "Yours Truly", "slides": [{"title": "a"}, {"title": "b"}], "x-id": {"ok": 1}}}"#)
    }

    private func reason(_ path: String) throws -> String? {
        try JSONPath(path).missingReason(in: document)
    }

    @Test("a misspelt member names the members there and the nearest one")
    func member() throws {
        #expect(try reason("$.slideshow.autor") == "$.slideshow has no member 'autor' (members: author, slides, x-id); did you mean $.slideshow.author?")
        #expect(try reason("$.slidshow") == "$ has no member 'slidshow' (members: slideshow); did you mean $.slideshow?")
        #expect(try reason("$.slideshow['x-id'].nope") == "$.slideshow.x-id has no member 'nope' (members: ok)")
    }

    @Test("an index past the end, or a step into a scalar, says what is there")
    func indexAndKind() throws {
        #expect(try reason("$.slideshow.slides[5].title") == "$.slideshow.slides has 2 elements; [5] is out of range")
        #expect(try reason("$.slideshow.slides[-3]") == "$.slideshow.slides has 2 elements; [-3] is out of range")
        #expect(try reason("$.slideshow.author.name") == "$.slideshow.author is a string, not an object, so it has no member 'name'")
        #expect(try reason("$.slideshow[0]") == "$.slideshow is an object, not an array, so it has no [0]")
    }

    @Test("paths that select something, or are not definite, give no reason")
    func none() throws {
        #expect(try reason("$.slideshow.slides[1].title") == nil)
        #expect(try reason("$..nope") == nil)
        #expect(try reason("$.slideshow.slides[*].nope") == nil)
    }
}
