import Foundation
import Synchronization
import Testing
@testable import Tapedeck

@Suite("Replay transport")
struct ReplayTransportTests {
    func request(_ method: HTTPMethod = .get, _ url: String, headers: HTTPHeaders = [:], body: String? = nil) -> HTTPRequest {
        HTTPRequest(method: method, url: URL(string: url)!, headers: headers, body: body.map { Data($0.utf8) })
    }

    func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test("matches method and URL with query order and host case ignored")
    func defaultMatching() async throws {
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, "http://api.test/items?a=1&b=2", body: "one")]))
        #expect(text(try await replay.send(request(.get, "http://API.test:80/items?b=2&a=1"))) == "one")
        await #expect(throws: CassetteError.self) { try await replay.send(request(.post, "http://api.test/items?a=1&b=2")) }
    }

    @Test("identical requests play back in recorded order, then fail, unless repeats are allowed")
    func playbackOrder() async throws {
        let cassette = Cassette(interactions: [.make(body: "first"), .make(body: "second")])
        let replay = ReplayTransport(cassette: cassette, path: "order.cassette.json")
        #expect(text(try await replay.send(request(.get, "http://api.test/items"))) == "first")
        #expect(text(try await replay.send(request(.get, "http://api.test/items"))) == "second")
        do {
            _ = try await replay.send(request(.get, "http://api.test/items"))
            Issue.record("a third identical request was served")
        } catch let CassetteError.noMatch(report) {
            #expect(report.skipped == ["#1 GET http://api.test/items was already played (2 of 2 used); identical requests are served in recorded order"])
            #expect(report.suggested.first == .allowRepeats(path: "order.cassette.json", mode: nil))
            #expect(report.fixes.first == "allow reusing the last match: set CassetteConfiguration.allowRepeats = true")
            // Every interaction that matches was played: the cassette is not called empty.
            #expect(report.description.contains("no other recorded interaction to compare with"), "\(report)")
            #expect(!report.description.contains("the cassette is empty"), "\(report)")
        }
        let repeating = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), allowRepeats: true))
        for expected in ["first", "second", "second", "second"] {
            #expect(text(try await repeating.send(request(.get, "http://api.test/items"))) == expected)
        }
    }

    @Test("reports interactions that were never played")
    func unusedReport() async throws {
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(), .make(.get, "http://api.test/other")]), path: "u.json")
        _ = try await replay.send(request(.get, "http://api.test/items"))
        #expect(replay.unusedInteractions == [1])
        #expect(replay.playedCount == 1)
        #expect(replay.unusedReport() == "1 of 2 interactions in u.json were never played:\n  #1 GET http://api.test/other")
    }

    @Test("a cassette never redacted (a browser's HAR) shows none of its credentials in a mismatch report or the unused report")
    func reportsOfAnUnredactedCassette() async throws {
        let secretURL = "http://api.test/login?password=hunter2secret&api_key=AKIAIOSFODNN7EXAMPLE"
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, secretURL)]), path: "har.json")
        do {
            _ = try await replay.send(request(.get, "http://api.test/login?password=other"))
            Issue.record("a request with another password matched")
        } catch {
            let text = "\(error)"
            #expect(text.contains("no recorded interaction matches"), "\(text)")
            for secret in ["hunter2secret", "AKIAIOSFODNN7EXAMPLE"] { #expect(!text.contains(secret), "\(text)") }
        }
        let unused = replay.unusedReport()
        #expect(unused.contains("api.test/login"), "\(unused)")
        for secret in ["hunter2secret", "AKIAIOSFODNN7EXAMPLE"] { #expect(!unused.contains(secret), "\(unused)") }
    }

    @Test("a mismatch report scrubs a token one interaction sends in a header from another's path")
    func reportsScrubAcrossInteractions() async throws {
        let token = "tok_live_9f8e7d6c5b4aZZZ1234"
        let replay = ReplayTransport(cassette: Cassette(interactions: [
            .make(.get, "http://api.test/me", requestHeaders: ["Authorization": "Bearer \(token)"]),
            .make(.get, "http://api.test/tokens/\(token)/info"),
        ]), path: "har.json")
        let error = await #expect(throws: CassetteError.self) { try await replay.send(request(.get, "http://api.test/tokens/WRONG/info")) }
        let text = "\(String(describing: error))"
        #expect(text.contains("/tokens/%3CREDACTED%3E/info") && !text.contains(token), "\(text)")
        // The never-played summary shows them the same way.
        let unused = replay.unusedReport()
        #expect(unused.contains("/tokens/%3CREDACTED%3E/info") && !unused.contains(token), "\(unused)")
    }

    @Test("a mismatch report shows recorded requests redacted by the session's own redactor, and says when only a credential differs")
    func reportsBySessionRedactor() async throws {
        let configuration = CassetteConfiguration(URL(fileURLWithPath: "<memory>"), redactor: Redactor(queryItems: ["sid"]))
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, "http://api.test/feed?sid=SID0RAW0VALUE77")]),
                                     configuration: configuration)
        let error = await #expect(throws: CassetteError.self) {
            try await replay.send(request(.get, "http://api.test/feed?sid=another-session-1"))
        }
        let text = "\(String(describing: error))"
        #expect(text.contains("api.test/feed?sid=%3CREDACTED%3E"), "\(text)")
        #expect(!text.contains("SID0RAW0VALUE77"), "\(text)")
        // Both sides show the value replaced: the report says a credential differs, and the
        // fix, not "identical".
        #expect(text.contains("only a credential differs, shown redacted on both sides") && !text.contains("identical as compared"), "\(text)")
    }

    @Test("lists at most five never-played interactions, then how many more and where to see them")
    func unusedReportIsShort() {
        let interactions = (0..<8).map { Interaction.make(.get, "http://api.test/item/\($0)") }
        let replay = ReplayTransport(cassette: Cassette(interactions: interactions), path: "Sessions/big tour.json")
        let lines = replay.unusedReport().split(separator: "\n").map(String.init)
        #expect(lines.count == 7)
        #expect(lines.first == "8 of 8 interactions in Sessions/big tour.json were never played:")
        #expect(lines[5] == "  #4 GET http://api.test/item/4")
        #expect(lines.last == "  … and 3 more (ReplayTransport.cassette.interactions lists them)")
    }

    @Test("a header allow-list, body modes, ignored query items and a custom predicate refine matches")
    func matcherOptions() async throws {
        let json = Interaction.make(.post, "http://api.test/orders", requestHeaders: ["Accept": "application/json"],
                                    requestBody: Data(#"{"qty":2,"sku":"a"}"#.utf8), body: "json")
        let form = Interaction.make(.post, "http://api.test/form", requestBody: Data("b=2&a=1".utf8), body: "form")
        let stamped = Interaction.make(.get, "http://api.test/feed?page=1&_ts=111", body: "feed")
        let cassette = Cassette(interactions: [json, form, stamped])

        let byHeader = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(headers: ["accept"])))
        await #expect(throws: CassetteError.self) {
            try await byHeader.send(request(.post, "http://api.test/orders", headers: ["Accept": "text/html"]))
        }
        let semantic = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .json)))
        #expect(text(try await semantic.send(request(.post, "http://api.test/orders", body: #"{ "sku": "a", "qty": 2.0 }"#))) == "json")
        let raw = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .raw)))
        await #expect(throws: CassetteError.self) {
            try await raw.send(request(.post, "http://api.test/orders", body: #"{ "sku": "a", "qty": 2 }"#))
        }
        let formMatch = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .form)))
        #expect(text(try await formMatch.send(request(.post, "http://api.test/form", body: "a=1&b=2"))) == "form")
        let ignoring = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(ignoredQueryItems: ["_ts"])))
        #expect(text(try await ignoring.send(request(.get, "http://api.test/feed?_ts=999&page=1"))) == "feed")
        let custom = ReplayTransport(cassette: cassette, configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(custom: { recorded, _ in recorded.body == nil })))
        await #expect(throws: CassetteError.self) { try await custom.send(request(.post, "http://api.test/orders")) }
    }

    @Test("the mismatch report ranks the nearest interactions with field-level differences and the fix")
    func mismatchReportText() async throws {
        let order = Interaction.make(.post, "http://api.test/orders?page=1&sort=asc", requestHeaders: ["Content-Type": "application/json"],
                                     requestBody: Data(#"{"items":[{"qty":2,"sku":"a"}]}"#.utf8))
        let cassette = Cassette(interactions: [.make(.get, "http://api.test/users"), order])
        let replay = ReplayTransport(cassette: cassette, path: "Sessions/shop.cassette.json",
                                     configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: Matcher(body: .json)))
        do {
            _ = try await replay.send(request(.post, "http://api.test/orders?sort=asc&page=2",
                                              headers: ["Content-Type": "application/json"], body: #"{"items":[{"qty":3,"sku":"a"}]}"#))
            Issue.record("mismatch was served")
        } catch {
            let text = error.localizedDescription
            #expect(text.contains("no recorded interaction matches POST http://api.test/orders?sort=asc&page=2"), "\(text)")
            #expect(text.contains("cassette: Sessions/shop.cassette.json (2 interactions)"))
            #expect(text.contains("matching on: method, URL (query order ignored), body (json)"))
            #expect(text.contains("  1. #1 POST http://api.test/orders?page=1&sort=asc\n       query page: \"1\" → \"2\"\n       body /items/0/qty: 2 → 3"), "\(text)")
            #expect(text.contains("  2. #0 GET http://api.test/users\n       method: GET → POST\n       path: /users → /orders"), "\(text)")
            #expect(text.hasSuffix("fix:\n  - record it: a ReplayTransport never records; open the cassette with "
                + "CassetteConfiguration(mode: .new) (or TAPEDECK_RECORD_MODE=new)"), "\(text)")
            for word in ["tapedeck ", "swift test", "withCassette", "--"] { #expect(!text.contains(word), "\(text)") }
        }
    }

    @Test("a path in the mismatch report is shown as its URL writes it, escapes and all")
    func mismatchPathAsWritten() async throws {
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, "http://api.test/files/a%2fb")]))
        do {
            _ = try await replay.send(request(.get, "http://api.test/files/c%2fd"))
            Issue.record("mismatch was served")
        } catch {
            let text = error.localizedDescription
            #expect(text.contains("path: /files/a%2fb → /files/c%2fd"), "\(text)")
        }
    }

    @Test("follows recorded redirect chains hop by hop to the final response only when followRedirects is on")
    func followsRedirects() async throws {
        let hop1 = Interaction.make(.get, "http://api.test/redirect/2", status: 302, headers: ["Location": "/redirect/1"], body: "")
        let hop2 = Interaction.make(.get, "http://api.test/redirect/1", status: 302, headers: ["Location": "http://api.test/get"], body: "")
        let final = Interaction.make(.get, "http://api.test/get", body: "landed")
        let cassette = Cassette(interactions: [hop1, hop2, final])
        let following = CassetteConfiguration(URL(fileURLWithPath: "<memory>"), followRedirects: true)
        let response = try await ReplayTransport(cassette: cassette, configuration: following).send(request(.get, "http://api.test/redirect/2"))
        #expect(text(response) == "landed")
        #expect(response.url?.absoluteString == "http://api.test/get")
        let manual = try await ReplayTransport(cassette: cassette).send(request(.get, "http://api.test/redirect/2"))
        #expect(manual.status == 302)
    }

    @Test("lookup goes through the index: in 100,000 interactions each request compares with its one candidate only")
    func indexedLookup() throws {
        // Counting comparisons proves the cost is flat without timing it (make bench times it).
        let comparisons = Mutex(0)
        let matcher = Matcher(custom: { _, _ in comparisons.withLock { $0 += 1 }; return true })
        let interactions = (0..<100_000).map { Interaction.make(.get, "http://api.test/items/\($0)?v=\($0 % 7)", body: "\($0)") }
        let replay = ReplayTransport(cassette: Cassette(interactions: interactions), configuration: .init(URL(fileURLWithPath: "<memory>"), matcher: matcher))
        for index in stride(from: 0, to: 100_000, by: 200) {
            guard case .success(let response) = replay.lookup(request(.get, "http://api.test/items/\(index)?v=\(index % 7)")) else {
                Issue.record("no match for item \(index)")
                return
            }
            #expect(text(response) == "\(index)")
        }
        #expect(comparisons.withLock { $0 } == 500)
    }
}

/// Edge cases a VCR user meets: HEAD, bodiless statuses, non-UTF-8 query strings.
@Suite("Replay edge cases")
struct ReplayEdgeCaseTests {
    @Test("a HEAD response keeps the Content-Length of the body it describes, recorded and loaded")
    func headContentLength() async throws {
        let directory = TemporaryDirectory()
        let url = directory.file("head.cassette.json")
        let live = StubTransport { _ in HTTPResponse(status: 200, headers: ["Content-Type": "application/json", "Content-Length": "199"]) }
        let recorder = try RecordingTransport(configuration: CassetteConfiguration(url, mode: .all, environment: [:]), inner: live)
        _ = try await recorder.send(HTTPRequest(method: .head, url: URL(string: "http://api.test/get")!))
        let replayed = try await ReplayTransport(contentsOf: url).send(HTTPRequest(method: .head, url: URL(string: "http://api.test/get")!))
        #expect(replayed.headers["Content-Length"] == "199")
        #expect(replayed.body.isEmpty)
    }

    @Test("a 304 keeps its headers and a GET whose recorded Content-Length is wrong is fixed on load")
    func bodilessAndWrongLength() throws {
        let cassette = Cassette(interactions: [
            .make(.get, "http://api.test/cached", status: 304, headers: ["ETag": "\"x\"", "Content-Length": "120"], body: ""),
            .make(.get, "http://api.test/edited", headers: ["Content-Length": "3"], body: "hand-edited body"),
        ])
        let loaded = try CassetteCodec.decode(cassette.encoded(), source: "edited.cassette.json")
        #expect(loaded.interactions[0].response.headers["Content-Length"] == "120")
        #expect(loaded.interactions[1].response.headers["Content-Length"] == "16")
    }

    @Test("query values that are not UTF-8 match only the same bytes, not any other invalid value")
    func nonUTF8Query() async throws {
        let replay = ReplayTransport(cassette: Cassette(interactions: [.make(.get, "http://api.test/s?q=%FF", body: "ff")]))
        #expect(String(decoding: try await replay.send(HTTPRequest(url: URL(string: "http://api.test/s?q=%ff")!)).body, as: UTF8.self) == "ff")
        let fresh = ReplayTransport(cassette: replay.cassette)
        await #expect(throws: CassetteError.self) { try await fresh.send(HTTPRequest(url: URL(string: "http://api.test/s?q=%FE")!)) }
        let report = fresh.report(for: HTTPRequest(url: URL(string: "http://api.test/s?q=%FE")!)).description
        #expect(report.contains(#"query q: "%FF" → "%FE""#), "\(report)")
    }
}

@Suite("Matching specs for the command line")
struct MatcherSpecTests {
    @Test("a vcrpy-style spec sets body, header and ignored-query matching")
    func parses() throws {
        let matcher = try Matcher(spec: "method, url, body, header:Accept, header:X-Api-Version, ignore-query:ts")
        #expect(matcher.body == .json)
        #expect(matcher.headers == ["Accept", "X-Api-Version"])
        #expect(matcher.ignoredQueryItems == ["ts"])
        #expect(try Matcher(spec: "body:form").body == .form)
        #expect(try Matcher(spec: "").summary == Matcher().summary)
    }

    @Test("an unknown part names itself and the parts that exist")
    func rejects() {
        for spec in ["host", "body:xml", "header:", "ignore-query"] {
            #expect {
                try Matcher(spec: spec)
            } throws: { error in
                let text = "\(error)"
                return text.hasPrefix("'\(spec)' in the matching spec '\(spec)' is not understood")
                    && text.contains("body, body:raw, body:form, header:NAME, ignore-query:NAME")
            }
        }
    }
}
