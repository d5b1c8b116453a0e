import Foundation
import Tapedeck
import Testing

/// `tapedeck run --jobs N`: files side by side, output never interleaved, one cassette recorded
/// by all of them, and a replay that gives every script its own answers in any order.
@Suite("tapedeck run --jobs: parallel files against httpbin",
       .enabled(if: Binary.ready, "needs httpbin and the built binary (make test starts httpbin and sets TAPEDECK_BIN)"))
struct RunJobsTests {
    let base = Binary.httpbin ?? ""
    static let names = ["a", "b", "c", "d", "e", "f"]

    /// Each script asks httpbin for a fresh UUID (a different answer every time, the same
    /// request for every script), then its own path; it prints a start and an end line.
    static func script(_ name: String, uuid: String? = nil) -> String {
        let check = uuid.map { "expect json $.uuid == \"\($0)\"\n" } ?? ""
        return "base {{base}}\nprint start-\(name)\nget /uuid\n\(check)get /anything/\(name)\nexpect json $.url endsWith \"/\(name)\"\nprint end-\(name)\n"
    }

    @Test("six files record into one cassette with --jobs 3: nothing lost, each interaction names its script, output whole and in order; replay gives each script its own UUID with --jobs 3 and --jobs 1")
    func recordAndReplay() throws {
        let folder = try Binary.temporaryDirectory("run-jobs")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = Self.names.map { "\($0).tape" }
        for name in Self.names { try Data(Self.script(name).utf8).write(to: folder.appendingPathComponent("\(name).tape")) }
        let recorded = try Binary.run(["run", "--jobs", "3", "--record", "c.json", "--mode", "all", "--var", "base=\(base)"] + files, in: folder)
        #expect(recorded.status == 0, "\(recorded.stdout)\(recorded.stderr)")
        // Each file's lines together, in the order the files were given.
        let printed = recorded.stdout.split(separator: "\n").filter { $0.hasPrefix("start-") || $0.hasPrefix("end-") }.map(String.init)
        #expect(printed == Self.names.flatMap { ["start-\($0)", "end-\($0)"] }, "\(recorded.stdout)")
        let summary = try #require(recorded.stdout.split(separator: "\n").last.map(String.init))
        #expect(summary.hasPrefix("6 passed, 0 failed · 12 requests ("), "\(summary)")
        #expect(summary.contains("/s) · "))

        let cassette = try Cassette.load(from: folder.appendingPathComponent("c.json"))
        #expect(cassette.interactions.count == 12, "nothing lost")
        var uuids: [String: String] = [:]
        for interaction in cassette.interactions {
            let owner = try #require(interaction.recordedBy)
            #expect(files.contains(owner), "the script's file name: \(owner)")
            if interaction.request.url.path == "/uuid" {
                let body = try JSONParser.parse(interaction.response.body)
                uuids[owner] = body.value(at: "/uuid")?.stringValue
            }
        }
        #expect(uuids.count == 6 && Set(uuids.values).count == 6)

        // Each script now expects the UUID it was given; a replay must hand each its own.
        for name in Self.names {
            try Data(Self.script(name, uuid: uuids["\(name).tape"]).utf8).write(to: folder.appendingPathComponent("\(name).tape"))
        }
        for jobs in ["3", "1"] {
            let replayed = try Binary.run(["run", "--jobs", jobs, "--replay", "c.json", "--var", "base=\(base)"] + files.reversed(), in: folder)
            #expect(replayed.status == 0, "--jobs \(jobs): \(replayed.stdout)\(replayed.stderr)")
            #expect(replayed.stdout.contains("6 passed, 0 failed · 12 requests ("), "--jobs \(jobs): \(replayed.stdout)")
        }
    }

    @Test("a cassette recorded without script names replays one script at a time with --jobs, and says why")
    func untaggedReplaysInOrder() throws {
        let folder = try Binary.temporaryDirectory("run-jobs-untagged")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b"] { try Data(Self.script(name).utf8).write(to: folder.appendingPathComponent("\(name).tape")) }
        let recorded = try Binary.run(["run", "--jobs", "1", "--record", "c.json", "--mode", "all", "--var", "base=\(base)", "a.tape", "b.tape"],
                                      in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        // Strip the names, as a cassette from an older Tapedeck or another tool has none.
        var cassette = try Cassette.load(from: folder.appendingPathComponent("c.json"))
        cassette.interactions = cassette.interactions.map { var copy = $0; copy.recordedBy = nil; return copy }
        try cassette.write(to: folder.appendingPathComponent("c.json"))
        let replayed = try Binary.run(["run", "--jobs", "4", "--replay", "c.json", "--var", "base=\(base)", "a.tape", "b.tape"], in: folder)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
        #expect(replayed.stderr.contains("one script at a time: it was recorded without script names"), "\(replayed.stderr)")
    }

    @Test("two scripts with the same name in different folders keep their own answers")
    func sameNameElsewhere() throws {
        let folder = try Binary.temporaryDirectory("run-jobs-same-name")
        defer { try? FileManager.default.removeItem(at: folder) }
        for sub in ["x", "y"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            try Data(Self.script(sub).utf8).write(to: folder.appendingPathComponent("\(sub)/s.tape"))
        }
        let recorded = try Binary.run(["run", "--jobs", "2", "--record", "c.json", "--mode", "all", "--var", "base=\(base)", "x/s.tape", "./y/s.tape"],
                                      in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let cassette = try Cassette.load(from: folder.appendingPathComponent("c.json"))
        #expect(Set(cassette.interactions.compactMap(\.recordedBy)) == ["x/s.tape", "y/s.tape"])
        var uuids: [String: String] = [:]
        for interaction in cassette.interactions where interaction.request.url.path == "/uuid" {
            uuids[interaction.recordedBy ?? ""] = try JSONParser.parse(interaction.response.body).value(at: "/uuid")?.stringValue
        }
        for sub in ["x", "y"] {
            try Data(Self.script(sub, uuid: uuids["\(sub)/s.tape"]).utf8).write(to: folder.appendingPathComponent("\(sub)/s.tape"))
        }
        let replayed = try Binary.run(["run", "--jobs", "1", "--replay", "c.json", "--var", "base=\(base)", "y/s.tape", "x/s.tape"], in: folder)
        #expect(replayed.status == 0, "\(replayed.stdout)\(replayed.stderr)")
    }

    @Test("twenty files that capture and reuse a value: --jobs 4 and --jobs 1 give the same results and the same output, recording and replaying")
    func twentyFiles() throws {
        let folder = try Binary.temporaryDirectory("run-jobs-twenty")
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = (1...20).map { String(format: "f%02d.tape", $0) }
        for (number, file) in files.enumerated() {
            // Every third one fails on purpose, after capturing and reusing its value.
            let check = number % 3 == 2 ? "expect status == 201\n" : "expect json $.url endsWith \"/{{id}}\"\n"
            let text = "base {{base}}\nprint start \(file)\nget /uuid\ncapture id = json $.uuid\nget /anything/{{id}}\n\(check)print end \(file)\n"
            try Data(text.utf8).write(to: folder.appendingPathComponent(file))
        }
        func lines(_ outcome: Binary.Outcome) -> [String] {
            // The summary's rate and duration differ from run to run; everything else must not.
            outcome.stdout.split(separator: "\n").map { $0.hasPrefix("14 passed") ? "14 passed, 6 failed" : String($0) }
        }
        let recorded4 = try Binary.run(["run", "--jobs", "4", "--continue-on-error", "--record", "c.json", "--mode", "all",
                                        "--var", "base=\(base)"] + files, in: folder)
        #expect(recorded4.status == 4, "\(recorded4.stderr)")
        #expect(recorded4.stdout.split(separator: "\n").last?.hasPrefix("14 passed, 6 failed · 40 requests (") == true, "\(recorded4.stdout)")
        let starts = lines(recorded4).filter { $0.hasPrefix("start ") || $0.hasPrefix("end ") }
        #expect(starts == files.flatMap { ["start \($0)", "end \($0)"] }, "each file's lines together, in order")
        let recordedCount = try Cassette.load(from: folder.appendingPathComponent("c.json")).interactions.count
        #expect(recordedCount == 40, "nothing lost")

        let replay4 = try Binary.run(["run", "--jobs", "4", "--continue-on-error", "--replay", "c.json", "--var", "base=\(base)"] + files, in: folder)
        let replay1 = try Binary.run(["run", "--jobs", "1", "--continue-on-error", "--replay", "c.json", "--var", "base=\(base)"] + files, in: folder)
        #expect(replay4.status == 4 && replay1.status == 4)
        #expect(lines(replay4) == lines(replay1), "\(replay4.stdout)\n---\n\(replay1.stdout)")
        #expect(lines(replay4) == lines(recorded4))
        #expect(replay4.stderr == replay1.stderr, "the same failures, in the same order")
    }

    @Test("--jobs 0 is refused with the fix")
    func badJobs() throws {
        let folder = try Binary.temporaryDirectory("run-jobs-bad")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("print x\n".utf8).write(to: folder.appendingPathComponent("a.tape"))
        let outcome = try Binary.run(["run", "--jobs", "0", "a.tape"], in: folder)
        #expect(outcome.status == 1)
        #expect(outcome.stderr.contains("--jobs 0 is not a number of scripts; give 1 or more"), "\(outcome.stderr)")
    }
}
