import Testing
@testable import Tapedeck

/// The writer's bytes (``ByteOutput``): what is appended is what is read back, across growth,
/// and a copy is a value of its own once either one writes.
@Suite("The JSON writer's byte output")
struct ByteOutputTests {
    @Test("appends of every kind, across many growths, read back as an array's appends would")
    func appendsReadBack() {
        var output = ByteOutput(capacity: 1)
        var expected: [UInt8] = []
        var generator = SystemRandomNumberGenerator()
        for round in 0..<2_000 {
            switch round % 4 {
            case 0:
                let byte = UInt8.random(in: 0...255, using: &generator)
                output.append(byte)
                expected.append(byte)
            case 1:
                let run = (0..<Int.random(in: 0...70, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                run.withUnsafeBufferPointer { output.append($0) }
                expected += run
            case 2:
                output.append("\"key\": ")
                expected += Array("\"key\": ".utf8)
            default:
                let text = "héllo \(round) 🎛"
                output.append(text)
                expected += Array(text.utf8)
            }
            #expect(output.count == expected.count)
        }
        #expect(output.array == expected)
        output.withBytes { #expect(Array($0) == expected) }
    }

    @Test("removeAll(from:) drops the bytes from there on, and writing goes on after them")
    func removesFromAnOffset() {
        var output = ByteOutput()
        output.append("[1, 2, 3]")
        output.removeAll(from: 1)
        output.append("\n")
        #expect(output.array == Array("[\n".utf8))
        output.removeAll(from: 99)
        #expect(output.count == 2)
        output.removeAll(from: -1)
        #expect(output.count == 0)
    }

    @Test("a copy keeps its own bytes when either it or the original writes after the copy")
    func copiesAreValues() {
        var original = ByteOutput(capacity: 64)
        original.append("shared")
        var copy = original
        copy.append(" copy")
        original.append(" original")
        #expect(String(decoding: copy.array, as: UTF8.self) == "shared copy")
        #expect(String(decoding: original.array, as: UTF8.self) == "shared original")
        var third = original
        original.removeAll(from: 0)
        original.append("x")
        #expect(String(decoding: third.array, as: UTF8.self) == "shared original")
        third.append("!")
        #expect(String(decoding: third.array, as: UTF8.self) == "shared original!")
        #expect(original.array == [UInt8(ascii: "x")])
    }

    @Test("a quoted run and a line break with its indentation, past the room there was")
    func quotedAndLineBreaks() {
        var output = ByteOutput(capacity: 16)
        Array("Content-Type".utf8).withUnsafeBufferPointer { output.append(quoted: $0) }
        output.appendLineBreak(indentedBy: 40)
        [UInt8]().withUnsafeBufferPointer { output.append(quoted: $0) }
        output.appendLineBreak(indentedBy: 0)
        output.appendLineBreak(indentedBy: -3)
        let expected = "\"Content-Type\"\n" + String(repeating: " ", count: 40) + "\"\"\n\n"
        #expect(String(decoding: output.array, as: UTF8.self) == expected)
    }

    @Test("an empty buffer appends nothing, and an empty output reads as no bytes")
    func emptyInputs() {
        var output = ByteOutput(capacity: 0)
        output.append(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
        output.append("")
        #expect(output.count == 0)
        #expect(output.array.isEmpty)
    }
}
