import Foundation
import TapedeckTestSupport
import Testing
@testable import Tapedeck

@Suite("Decompression bombs in cassettes", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3 to compress"))
struct DecompressionBombTests {
    /// `megabytes` MiB of zeros, gzip- or zlib-compressed by python3 (about 1 KiB per MiB).
    static func compressedZeros(megabytes: Int, gzip: Bool = true) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let module = gzip ? "gzip.compress" : "zlib.compress"
        process.arguments = ["-c", "import gzip, zlib, sys; sys.stdout.buffer.write(\(module)(bytes(\(megabytes) * 1048576), 9))"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    private func vcrpy(_ body: Data, encoding: String) -> Data {
        let lines = body.base64EncodedString(options: [.lineLength76Characters, .endLineWithLineFeed])
            .split(separator: "\n").map { "        " + $0 }.joined(separator: "\n")
        return Data("""
            interactions:
            - request: {body: null, headers: {}, method: GET, uri: 'http://api.test/ok'}
              response:
                body: {string: ok}
                headers: {}
                status: {code: 200, message: OK}
            - request: {body: null, headers: {}, method: GET, uri: 'http://api.test/bomb'}
              response:
                body:
                  string: !!binary |
            \(lines)
                headers:
                  Content-Encoding: [\(encoding)]
                status: {code: 200, message: OK}
            version: 1

            """.utf8)
    }

    @Test("a gzip or deflate bomb in a vcrpy cassette stops at the limit with an error naming the interaction")
    func vcrpyBomb() throws {
        for gzip in [true, false] {
            let bomb = try Self.compressedZeros(megabytes: 8, gzip: gzip)
            #expect(bomb.count < 64 * 1024)
            do {
                _ = try VCRCassetteReader.read(vcrpy(bomb, encoding: gzip ? "gzip" : "deflate"), file: "bomb.yaml", defaultDate: Date())
                Issue.record("an 8 MiB bomb of \(bomb.count) bytes was decoded")
            } catch {
                let message = error.localizedDescription
                #expect(message.hasPrefix("bomb.yaml: interactions[1].response.body"), "\(message)")
                #expect(message.contains("decodes to more than") && message.contains("BodyLimits"))
            }
        }
    }

    @Test("a gzip bomb in a HAR file stops at the limit with an error naming the entry")
    func harBomb() throws {
        let bomb = try Self.compressedZeros(megabytes: 8)
        let har = #"{"log":{"version":"1.2","creator":{"name":"t","version":"1"},"entries":[{"startedDateTime":"2026-01-01T00:00:00.000Z","time":1,"request":{"method":"GET","url":"http://api.test/bomb","httpVersion":"HTTP/1.1","headers":[],"queryString":[],"cookies":[],"headersSize":-1,"bodySize":0},"response":{"status":200,"statusText":"OK","httpVersion":"HTTP/1.1","headers":[{"name":"Content-Encoding","value":"gzip"}],"cookies":[],"content":{"size":0,"mimeType":"text/plain","encoding":"base64","text":"\#(bomb.base64EncodedString())"},"redirectURL":"","headersSize":-1,"bodySize":-1},"cache":{},"timings":{"send":0,"wait":1,"receive":0}}]}}"#
        #expect(throws: InteropError.self) { try HARReader.read(Data(har.utf8), file: "bomb.har") }
        do {
            _ = try HARReader.read(Data(har.utf8), file: "bomb.har")
        } catch {
            #expect(error.localizedDescription.contains("entries[0].response.content"), "\(error.localizedDescription)")
        }
    }

    @Test("Cassette.load takes the limits: an 8 MiB body too large for the default ratio reads whole with looser ones, and a smaller maximum refuses a 1 MiB one")
    func loadLimits() throws {
        let folder = try TestScratch.directory("tapedeck-limits")
        defer { try? FileManager.default.removeItem(at: folder) }
        let large = folder.appendingPathComponent("large.yaml")
        try vcrpy(try Self.compressedZeros(megabytes: 8), encoding: "gzip").write(to: large)
        #expect(throws: CassetteError.self) { try Cassette.load(from: large) }
        let loose = BodyLimits(maximumBodySize: 16 * 1024 * 1024, maximumExpansionRatio: 100_000)
        #expect(try Cassette.load(from: large, limits: loose).interactions[1].response.body.count == 8 * 1024 * 1024)

        let small = folder.appendingPathComponent("small.yaml")
        try vcrpy(try Self.compressedZeros(megabytes: 1), encoding: "gzip").write(to: small)
        #expect(try Cassette.load(from: small).interactions[1].response.body.count == 1024 * 1024)
        let strict = BodyLimits(maximumBodySize: 512 * 1024, ratioFloor: 256 * 1024)
        do {
            _ = try Cassette.load(from: small, limits: strict)
            Issue.record("a 1 MiB body was read past a 512 KiB maximum")
        } catch {
            #expect(error.localizedDescription.contains("interactions[1].response.body"), "\(error.localizedDescription)")
        }
    }

    @Test("the limit is the maximum size, or the expansion ratio past the floor; ordinary bodies decode")
    func limits() throws {
        let limits = BodyLimits(maximumBodySize: 4 * 1024 * 1024, maximumExpansionRatio: 200, ratioFloor: 1024 * 1024)
        #expect(limits.decodedLimit(compressedSize: 100) == 1024 * 1024)
        #expect(limits.decodedLimit(compressedSize: 10_000) == 2_000_000)
        #expect(limits.decodedLimit(compressedSize: 1_000_000) == 4 * 1024 * 1024)
        let small = try Self.compressedZeros(megabytes: 1)
        #expect(try Inflate.gunzip(small, limit: 1024 * 1024).count == 1024 * 1024)
        #expect(throws: Inflate.Failure.limit(1024 * 1024 - 1)) { try Inflate.gunzip(small, limit: 1024 * 1024 - 1) }
        #expect(try VCRCassetteReader.read(vcrpy(small, encoding: "gzip"), file: "ok.yaml", defaultDate: Date())
            .interactions[1].response.body.count == 1024 * 1024)
    }
}
