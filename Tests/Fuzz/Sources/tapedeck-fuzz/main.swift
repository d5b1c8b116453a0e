// tapedeck-fuzz: the long fuzz pass (`make fuzz`). Runs each target over its committed corpus
// and then over seeded mutations; exits non-zero on a crash, a hang over the time limit, a
// wrong answer, or peak memory over the bound. A crashing or hanging input is saved under
// the artifacts folder; `--replay FILE --target NAME` runs it again alone.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import Foundation
import TapedeckFuzzing

struct Settings {
    var inputs = 1_000_000
    var seed: UInt64 = 20_261_123
    var targets: [String] = []
    var replay: String?
    var hangMilliseconds = 1_000
    var memoryLimitMB = 1_024
    var artifacts = ".build/fuzz"
}

func parseSettings() -> Settings {
    var settings = Settings()
    var arguments = CommandLine.arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let next = arguments.popFirst() else {
            FileHandle.standardError.write(Data("tapedeck-fuzz: \(flag) needs a value\n".utf8))
            exit(1)
        }
        return next
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--inputs": settings.inputs = Int(value(argument)) ?? settings.inputs
        case "--seed": settings.seed = UInt64(value(argument)) ?? settings.seed
        case "--target": settings.targets.append(value(argument))
        case "--replay": settings.replay = value(argument)
        case "--hang-ms": settings.hangMilliseconds = Int(value(argument)) ?? settings.hangMilliseconds
        case "--memory-limit-mb": settings.memoryLimitMB = Int(value(argument)) ?? settings.memoryLimitMB
        case "--artifacts": settings.artifacts = value(argument)
        default:
            FileHandle.standardError.write(Data("""
                usage: tapedeck-fuzz [--inputs N] [--seed S] [--target NAME]... [--hang-ms MS] [--memory-limit-mb MB]
                                     [--artifacts DIR] [--replay FILE --target NAME]
                targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))

                """.utf8))
            exit(1)
        }
    }
    return settings
}

// MARK: - Saving the input that crashed or hung

/// The input being run, copied where a signal handler can write it without locking.
nonisolated(unsafe) let crashBuffer = UnsafeMutableRawPointer.allocate(byteCount: 8 << 20, alignment: 1)
nonisolated(unsafe) var crashLength = 0
nonisolated(unsafe) var crashPath: UnsafeMutablePointer<CChar>?

func remember(_ input: Data) {
    let count = min(input.count, 8 << 20)
    input.withUnsafeBytes { crashBuffer.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(crashBuffer), byteCount: count) }
    crashLength = count
}

func installCrashHandler(artifacts: String) {
    try? FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
    crashPath = strdup(artifacts + "/crash.bin")
    // Stack overflows need a stack of their own to run the handler on.
    var stack = stack_t()
    stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
    stack.ss_size = 1 << 16
    sigaltstack(&stack, nil)
    for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE] {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { signal in
            if let crashPath {
                let file = open(crashPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if file >= 0 {
                    _ = write(file, crashBuffer, crashLength)
                    close(file)
                }
            }
            let message = "tapedeck-fuzz: CRASH (signal); the input is saved as .../crash.bin\n"
            message.withCString { _ = write(2, $0, strlen($0)) }
            Glibc.signal(signal, SIG_DFL)
            raise(signal)
        }
        #endif
        action.sa_flags = Int32(SA_ONSTACK)
        sigaction(signal, &action, nil)
    }
}

/// Ends the process when one input uses more CPU than the limit (or blocks ten times as long
/// on the wall clock), saving it first. CPU time, because on a busy machine a stalled process
/// is not a hung one.
func startWatchdog(limit: Duration, artifacts: String) {
    var clock = clockid_t()
    pthread_getcpuclockid(pthread_self(), &clock)
    let fuzzingThread = clock
    let thread = Thread {
        while true {
            Thread.sleep(forTimeInterval: 0.05)
            let (target, input, started, cpuStarted) = FuzzDriver.current.withLock { $0 }
            guard let started else { continue }
            let wall = ContinuousClock.now - started
            guard wall > limit else { continue }
            let cpu = FuzzDriver.cpuTime(fuzzingThread) - cpuStarted
            guard cpu > limit || wall > limit * 10 else { continue }
            let path = "\(artifacts)/hang-\(target).bin"
            try? input.write(to: URL(fileURLWithPath: path))
            FileHandle.standardError.write(Data("tapedeck-fuzz: HANG: \(target) ran one input for \(cpu) of CPU (\(wall) wall), over \(limit); saved as \(path)\n".utf8))
            exit(2)
        }
    }
    thread.start()
}

// MARK: - Main

// Line-buffered, so progress shows when piped into a log.
setvbuf(stdout, nil, _IOLBF, 0)
let settings = parseSettings()
let chosen = settings.targets.isEmpty ? FuzzTarget.all : FuzzTarget.all.filter { settings.targets.contains($0.name) }
if chosen.isEmpty {
    FileHandle.standardError.write(Data("tapedeck-fuzz: no target named \(settings.targets); use \(FuzzTarget.all.map(\.name))\n".utf8))
    exit(1)
}
installCrashHandler(artifacts: settings.artifacts)

if let replay = settings.replay {
    guard let data = FileManager.default.contents(atPath: replay) else {
        FileHandle.standardError.write(Data("tapedeck-fuzz: cannot read \(replay)\n".utf8))
        exit(1)
    }
    for target in chosen {
        remember(data)
        let report = await FuzzDriver.run(target, corpus: [data], seed: 0, inputs: 0)
        print(report)
    }
    exit(0)
}

startWatchdog(limit: .milliseconds(settings.hangMilliseconds), artifacts: settings.artifacts)
print("tapedeck-fuzz: \(settings.inputs) inputs per target, seed \(settings.seed), hang limit \(settings.hangMilliseconds) ms, "
    + "memory bound \(settings.memoryLimitMB) MB")
var failed = false
for target in chosen {
    let corpus: [Data]
    do { corpus = try FuzzCorpus.load(target.name) } catch {
        FileHandle.standardError.write(Data("tapedeck-fuzz: cannot read the \(target.name) corpus: \(error)\n".utf8))
        exit(1)
    }
    var count = 0
    let started = ContinuousClock.now
    let report = await FuzzDriver.run(target, corpus: corpus, seed: settings.seed, inputs: settings.inputs) { input in
        remember(input)
        count += 1
        if count % 100_000 == 0 { print("  \(target.name): \(count) inputs, \(ContinuousClock.now - started)") }
    }
    print("\(report), peak RSS \(FuzzDriver.peakMemory() >> 20) MB")
    for (index, failure) in report.failures.prefix(5).enumerated() {
        let path = "\(settings.artifacts)/wrong-\(target.name)-\(index).bin"
        try? failure.input.write(to: URL(fileURLWithPath: path))
        print("  WRONG: \(failure.kind.rawValue); saved as \(path)")
        failed = true
    }
}
let peak = FuzzDriver.peakMemory() >> 20
if peak > settings.memoryLimitMB {
    print("tapedeck-fuzz: peak RSS \(peak) MB is over the \(settings.memoryLimitMB) MB bound")
    failed = true
}
print(failed ? "tapedeck-fuzz: FAILED" : "tapedeck-fuzz: no crash, no hang over \(settings.hangMilliseconds) ms, no wrong answer, peak RSS \(peak) MB")
exit(failed ? 1 : 0)
