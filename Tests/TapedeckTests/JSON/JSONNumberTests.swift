import Foundation
import Testing
@testable import Tapedeck

@Suite("Reading a JSON number as a double")
struct JSONNumberTests {
    @Test("a plain decimal reads to the same double as Double(String), bit for bit")
    func plainDecimals() {
        var literals = ["0", "-0", "0.001", "0.0042", "1.5", "-3.25", "0.1", "0.2", "0.3", "123456789012345",
                        "0.12345678901234", "9007199254.74099", "999999999999999", "0.00000000000001"]
        // Random digits with the point anywhere: a fixed generator, so a failure repeats.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<20_000 {
            let count = 1 + next(15)
            let digits = (0..<count).map { _ in Character(String(next(10))) }
            let point = 1 + next(count)
            let sign = next(4) == 0 ? "-" : ""
            literals.append(sign + String(digits[..<point]) + (point < count ? "." + String(digits[point...]) : ""))
        }
        for literal in literals {
            let fast = JSONValue.plainDecimal(literal)
            #expect(fast != nil, "\(literal)")
            #expect(fast?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
            #expect(JSONValue.number(literal).doubleValue?.bitPattern == Double(literal)?.bitPattern, "\(literal)")
        }
    }

    @Test("a literal the fast reading does not cover is left to Double(String)", arguments: [
        "1e5", "1E-2", "2.5e+3", "1234567890123456", "0.1234567890123456", "", "-", "1.2.3", "+1", "0x10", "NaN",
    ])
    func otherLiterals(literal: String) {
        #expect(JSONValue.plainDecimal(literal) == nil)
        // doubleValue still reads it, as Double(String) does.
        #expect(JSONValue.number(literal).doubleValue?.bitPattern == Double(literal)?.bitPattern)
    }
}
