import Foundation

// Runs one named in-process benchmark and prints its result as one line of JSON, so
// Benchmarks/run.sh can compare it with curl, HTTPie and vcrpy measured in the same run.
// Usage: tapedeck-bench NAME [ARGS...]

let suites: [String: @Sendable ([String]) async throws -> String] =
    CLIBench.cases.merging(ShellBench.cases) { a, _ in a }
        .merging(CassetteBench.cases) { a, _ in a }
        .merging(InteropBench.cases) { a, _ in a }

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let run = suites[name] else {
    FileHandle.standardError.write(Data("usage: tapedeck-bench NAME [ARGS...]; names: \(suites.keys.sorted().joined(separator: ", "))\n".utf8))
    exit(1)
}
do {
    print(try await run(Array(arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
    exit(1)
}
