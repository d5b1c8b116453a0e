import Foundation
import Testing
@testable import Tapedeck

@Suite("Latency and fault rules")
struct NetworkConditionsTests {
    @Test("latency reads recorded, milliseconds and a factor, and says what it expects otherwise")
    func latencyParsing() throws {
        #expect(try Latency(parsing: "recorded") == .recorded)
        #expect(try Latency(parsing: "250") == .fixed(milliseconds: 250))
        #expect(try Latency(parsing: "250ms") == .fixed(milliseconds: 250))
        #expect(try Latency(parsing: "x0.5") == .scaled(0.5))
        #expect(try Latency(parsing: "0") == Latency.none)
        #expect(Latency.scaled(2).delay(recordedDuration: 0.25) == 0.5)
        #expect(Latency.recorded.delay(recordedDuration: 0.25) == 0.25)
        #expect(throws: ConditionsError.invalidLatency(value: "soon", source: "latency")) { try Latency(parsing: "soon") }
    }

    @Test("fault rules read method, path pattern, action and rate", arguments: [
        ("GET /users/*=status:503@25%", FaultRule(method: "GET", pathPattern: "/users/*", action: .status(503), rate: 0.25)),
        ("/slow=slow:1000", FaultRule(pathPattern: "/slow", action: .slow(bytesPerSecond: 1000))),
        ("*=reset@10%", FaultRule(pathPattern: "*", action: .reset, rate: 0.1)),
        ("POST=timeout", FaultRule(method: "POST", pathPattern: "*", action: .timeout)),
        ("DELETE /a/*/b=truncate", FaultRule(method: "DELETE", pathPattern: "/a/*/b", action: .truncate)),
    ])
    func faultParsing(text: String, expected: FaultRule) throws {
        let rule = try FaultRule(parsing: text)
        #expect(rule == expected)
        #expect(try FaultRule(parsing: rule.description) == rule, "the description reads back")
    }

    @Test("bad fault rules name the value and the form", arguments: ["/a", "/a=explode", "/a=status:99", "/a=slow:0", "/a=reset@150%", "A B C=reset",
                                                                  "/a=status:100", "/a=status:101", "users/*=status:500", "a=reset", "GET users=reset",
                                                                  "/big?x=1=reset", "/a=reset@50%%"])
    func badFaults(text: String) {
        #expect {
            try FaultRule(parsing: text)
        } throws: { error in
            (error as? ConditionsError)?.errorDescription?.contains("'\(text)' is not a fault rule") == true
        }
    }

    @Test("path patterns match with * as any run of characters")
    func globs() {
        #expect(FaultRule.glob("/users/*", matches: "/users/7"))
        #expect(FaultRule.glob("/users/*", matches: "/users/"))
        #expect(!FaultRule.glob("/users/*", matches: "/user"))
        #expect(FaultRule.glob("/a/*/b", matches: "/a/x/y/b"))
        #expect(!FaultRule.glob("/a/*/b", matches: "/a/x/c"))
        #expect(FaultRule.glob("*", matches: "/anything"))
        #expect(FaultRule.glob("/exact", matches: "/exact") && !FaultRule.glob("/exact", matches: "/exact/more"))
    }

    @Test("a seeded rate draws the same faults on every run, about as often as asked")
    func seededRates() throws {
        let conditions = NetworkConditions(faults: [try FaultRule(parsing: "*=reset@30%")], seed: 99)
        let request = HTTPRequest(url: URL(string: "http://h.test/x")!)
        func draws() -> [Bool] {
            let plan = FaultPlan(conditions)
            return (0..<1000).map { _ in plan.fault(for: request) != nil }
        }
        let first = draws()
        #expect(first == draws())
        #expect((250...350).contains(first.filter { $0 }.count))
        var other = conditions
        other.seed = 100
        let otherPlan = FaultPlan(other)
        #expect((0..<1000).map { _ in otherPlan.fault(for: request) != nil } != first, "another seed draws otherwise")
    }

    @Test("in-process faults fail as a lost connection or a timeout; status answers; latency waits")
    func inProcessFaults() async throws {
        let inner = StubTransport { _ in HTTPResponse(status: 200, body: Data("ok".utf8), duration: 0.05) }
        let request = HTTPRequest(url: URL(string: "http://h.test/users")!)
        func transport(_ rule: String) throws -> ConditionedTransport {
            ConditionedTransport(inner: inner, conditions: NetworkConditions(faults: [try FaultRule(parsing: rule)]))
        }
        await #expect(throws: HTTPError.noResponse(url: "http://h.test/users", detail: "connection reset (fault rule reset)")) {
            try await transport("/users=reset").send(request)
        }
        await #expect(throws: HTTPError.timedOut(url: "http://h.test/users", seconds: 0)) { try await transport("/users=timeout").send(request) }
        let status = try await transport("GET /users=status:503").send(request)
        #expect(status.status == 503)
        #expect(status.headers[FaultPlan.faultHeader] == "status:503")
        #expect(try await transport("POST /users=status:503").send(request).status == 200, "a POST rule leaves GET alone")
        let clock = ContinuousClock()
        let start = clock.now
        let delayed = ConditionedTransport(inner: inner, conditions: NetworkConditions(latency: .scaled(4)))
        #expect(try await delayed.send(request).status == 200)
        #expect(clock.now - start >= .milliseconds(200), "x4 of a 50 ms recording waits at least 200 ms")
    }
}
