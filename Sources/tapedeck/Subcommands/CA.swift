import ArgumentParser
import Foundation
import Tapedeck
import TapedeckCurl
import TapedeckServer

extension TapedeckCommand {
    /// `tapedeck ca show|export|trust|env`: the user's own CA, which signs the certificates
    /// `serve --tls` and `proxy --intercept` present.
    struct CA: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ca",
            abstract: "Shows, exports and installs your local CA (what HTTPS clients trust to record and replay through Tapedeck).",
            discussion: HelpText.prose("""
                The CA is made on first use, for you alone: its key never leaves the folder
                (mode 0600), and no two people share one. It lives in TAPEDECK_CA_DIR, else
                $XDG_DATA_HOME/tapedeck/ca (~/.local/share/tapedeck/ca; on macOS
                ~/Library/Application Support/Tapedeck/ca), or where --ca-dir says.
                To start over, delete the folder; clients must then trust the new CA.
                """),
            subcommands: [Show.self, Export.self, Trust.self, Env.self]
        )
    }
}

/// Where the CA lives: `--ca-dir`, else ``LocalCA/defaultDirectory(environment:)``.
struct CAOptions: ParsableArguments {
    @Option(name: .customLong("ca-dir"), help: ArgumentHelp("The folder of the local CA (default: $TAPEDECK_CA_DIR, else ~/.local/share/tapedeck/ca).",
                                                            valueName: "dir"))
    var directory: String?

    var folder: URL { directory.map { URL(fileURLWithPath: $0) } ?? LocalCA.defaultDirectory() }

    /// The CA, made first when there is none (saying so on stderr).
    func authority() throws -> LocalCA {
        do {
            let (authority, created) = try LocalCA.openOrCreate(in: folder)
            if created {
                Console.note("created a local CA in \(folder.path) (\(try authority.fingerprint)); clients trust it with: tapedeck ca env, tapedeck ca trust")
            }
            // Said before it ends, not after: every certificate it signs ends with it.
            let left = authority.notValidAfter.timeIntervalSinceNow
            if left < 30 * 86_400 {
                Console.warning("the local CA in \(folder.path) ends on \(RFC3339Date.format(authority.notValidAfter, fractionDigits: 0).prefix(10)) "
                    + "(in \(max(0, Int(left / 86_400))) days), and the certificates it signs end with it; move the folder aside to make "
                    + "a new CA, then trust that one (tapedeck ca env, tapedeck ca trust)")
            }
            return authority
        } catch {
            Console.error(error.errorDescription ?? "\(error)")
            throw ExitCode(ExitStatus.unreadableInput)
        }
    }
}

extension TapedeckCommand.CA {
    /// `tapedeck ca show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Prints the CA's certificate path, key path, SHA-256 fingerprint and expiry.")

        @OptionGroup var ca: CAOptions

        func run() async throws {
            let authority = try ca.authority()
            let days = Int(authority.notValidAfter.timeIntervalSinceNow / 86_400)
            let expiry = authority.notValidAfter.formatted(.iso8601.year().month().day())
            Console.write("""
                certificate  \(authority.certificateFile.path)
                key          \(authority.keyFile.path) (readable by you only)
                subject      \(authority.certificate.subject)
                SHA-256      \(try authority.fingerprint)
                expires      \(expiry) (in \(days) days)

                """)
        }
    }

    /// `tapedeck ca export --pem|--der FILE`.
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Writes the CA certificate (never its key) as PEM or DER, for a device or a trust store.")

        @Option(name: .long, help: ArgumentHelp("Write PEM to FILE (- for stdout).", valueName: "file"))
        var pem: String?

        @Option(name: .long, help: ArgumentHelp("Write DER to FILE (.cer or .crt, what Android and Windows import).", valueName: "file"))
        var der: String?

        @OptionGroup var ca: CAOptions

        func validate() throws {
            guard (pem == nil) != (der == nil) else {
                throw ValidationError("give one of --pem FILE or --der FILE, e.g. tapedeck ca export --pem tapedeck-ca.pem")
            }
            if der == "-" { throw ValidationError("--der writes binary: give a file name, e.g. --der tapedeck-ca.cer") }
        }

        func run() async throws {
            let authority = try ca.authority()
            let data = pem != nil ? Data(try authority.pem.utf8) : Data(try authority.der)
            let path = pem ?? der ?? "-"
            if path == "-" {
                try Console.writeChecked(data)
                return
            }
            // A file of the CA's own folder (its key above all) is never written over.
            // Told by the folder itself (device and inode), not by its name: a name may differ
            // in case, or go by another link, and still be the CA's folder.
            let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
            var target = stat(), own = stat()
            if stat(folder.path, &target) == 0, stat(authority.directory.path, &own) == 0, target.st_dev == own.st_dev, target.st_ino == own.st_ino {
                throw ValidationError("'\(path)' is in the CA's own folder, where the CA keeps its key and certificate; "
                    + "write the export elsewhere, e.g. --\(pem != nil ? "pem tapedeck-ca.pem" : "der tapedeck-ca.cer")")
            }
            do {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw ValidationError("cannot write '\(path)': \(error.localizedDescription)")
            }
            Console.note("wrote the CA certificate (\(pem != nil ? "PEM" : "DER"), SHA-256 \(try authority.fingerprint)) to \(path)")
        }
    }

    /// `tapedeck ca env`.
    struct Env: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "env",
            abstract: "Prints the environment lines that make curl, Python, Node and OpenSSL clients trust the CA: eval \"$(tapedeck ca env)\".",
            discussion: HelpText.prose("""
                SSL_CERT_FILE, REQUESTS_CA_BUNDLE and CURL_CA_BUNDLE replace a client's
                trust store, so they name a bundle of the system's roots with the CA added
                (written beside the CA): hosts reached directly or passed through still
                verify. NODE_EXTRA_CA_CERTS adds to Node's roots, so it names the CA alone.
                With --proxy URL, HTTPS_PROXY and HTTP_PROXY are printed too.
                """))

        @Option(name: .long, help: ArgumentHelp("Also print HTTPS_PROXY and HTTP_PROXY for this proxy URL.", valueName: "url"))
        var proxy: String?

        @OptionGroup var ca: CAOptions

        func validate() throws {
            if let proxy, URL(string: proxy)?.host == nil {
                throw ValidationError("--proxy '\(proxy)' is not a URL; write --proxy http://127.0.0.1:8080")
            }
        }

        func run() async throws {
            let authority = try ca.authority()
            // Readable by the clients it is for, written by its owner alone, whatever the umask.
            let bundle = authority.directory.appending(path: "tapedeck-ca-bundle.pem")
            do {
                try OutputPath.write(CurlTransport.systemTrustStore(adding: Data(try authority.pem.utf8)), to: bundle, mode: 0o644)
            } catch let error as OutputPath.Failure {
                throw ValidationError("cannot write the trust bundle \(bundle.path): \(error.reason)")
            }
            var lines = ["SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"].map { "export \($0)=\(ShellQuote.quoted(bundle.path))" }
            lines.append("export NODE_EXTRA_CA_CERTS=\(ShellQuote.quoted(authority.certificateFile.path))")
            if let proxy {
                lines += ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"].map { "export \($0)=\(ShellQuote.quoted(proxy))" }
            }
            Console.write(lines.joined(separator: "\n") + "\n")
        }
    }

    /// `tapedeck ca trust --simulator booted | --android-emulator`.
    struct Trust: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trust",
            abstract: "Installs the CA in an iOS simulator or an Android emulator, in one command.",
            discussion: HelpText.prose("""
                --simulator DEVICE runs xcrun simctl keychain DEVICE add-root-cert on macOS
                (booted names the running simulator); elsewhere it prints the command.
                --android-emulator writes the CA under the name Android's system store
                expects and installs it with adb when adb is on PATH (the emulator must be
                started with -writable-system); without adb it prints the steps.
                """))

        @Option(name: .long, help: ArgumentHelp("The simulator to trust the CA in (booted, or a UDID).", valueName: "device"))
        var simulator: String?

        @Flag(name: .customLong("android-emulator"), help: "Install the CA in the running Android emulator's system store.")
        var androidEmulator = false

        @OptionGroup var ca: CAOptions

        func validate() throws {
            guard (simulator != nil) != androidEmulator else {
                throw ValidationError("give one of --simulator booted or --android-emulator, e.g. tapedeck ca trust --simulator booted")
            }
        }

        func run() async throws {
            let authority = try ca.authority()
            if let simulator {
                let arguments = ["simctl", "keychain", simulator, "add-root-cert", authority.certificateFile.path]
                #if os(macOS)
                let status = try Subprocess.run("/usr/bin/xcrun", arguments)
                guard status == 0 else {
                    Console.error("xcrun simctl failed (exit \(status)); is a simulator booted? Start one in Xcode, or name its UDID")
                    throw ExitCode(ExitStatus.transport)
                }
                Console.note("the \(simulator) simulator trusts the CA (SHA-256 \(try authority.fingerprint))")
                #else
                Console.write("On the Mac that runs the simulator:\n  xcrun \(arguments.map(ShellQuote.quoted).joined(separator: " "))\n")
                #endif
                return
            }
            try trustOnAndroid(authority)
        }

        private func trustOnAndroid(_ authority: LocalCA) throws {
            // Android's system store names each root by OpenSSL's old subject hash.
            let hashed = authority.directory.appending(path: try authority.androidStoreName)
            do { try Data(try authority.pem.utf8).write(to: hashed, options: .atomic) } catch {
                throw ValidationError("cannot write '\(hashed.path)': \(error.localizedDescription)")
            }
            let target = "/system/etc/security/cacerts/" + hashed.lastPathComponent
            let steps: [[String]] = [["root"], ["remount"], ["push", hashed.path, target], ["shell", "chmod", "644", target], ["reboot"]]
            guard let adb = Subprocess.find("adb") else {
                Console.write("Start the emulator with -writable-system, then:\n"
                    + steps.map { "  adb " + $0.map(ShellQuote.quoted).joined(separator: " ") }.joined(separator: "\n") + "\n")
                return
            }
            for step in steps {
                Console.note("adb " + step.joined(separator: " "))
                let status = try Subprocess.run(adb, step)
                guard status == 0 else {
                    Console.error("adb \(step.first ?? "") failed (exit \(status)); is the emulator running, started with -writable-system?")
                    throw ExitCode(ExitStatus.transport)
                }
            }
            Console.note("the emulator trusts the CA once it has rebooted (SHA-256 \(try authority.fingerprint))")
        }
    }
}

/// Text quoted for a POSIX shell.
enum ShellQuote {
    /// `text` in single quotes, each `'` written as `'\''`; bare when it needs no quoting.
    static func quoted(_ text: String) -> String {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "/._-:@%+=,".contains($0)) }) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Runs another program, its output passed through.
enum Subprocess {
    /// The path of `name` on `PATH`, if it is there.
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { String($0) + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs `executable` with `arguments` and returns its exit status.
    static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do { try process.run() } catch {
            throw ValidationError("cannot run \(executable): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
