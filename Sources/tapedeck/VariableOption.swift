@preconcurrency import Glibc
import ArgumentParser
import Foundation
import Tapedeck
import TapedeckTooling
import TapedeckCurl
import TapedeckShell

/// `--var name=value` options.
enum VariableOption {
    /// The variables of `--env-file` files in order, then `--var` options over them.
    static func load(envFiles: [String], variables: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for path in envFiles {
            let text: String
            do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
                throw ValidationError("cannot read --env-file '\(path)': no such file or not UTF-8 text")
            }
            for (key, value) in try EnvFile.parse(text, path: path) { result[key] = value }
        }
        for (key, value) in try parse(variables) { result[key] = value }
        return result
    }

    static func parse(_ options: [String]) throws -> [String: String] {
        var variables: [String: String] = [:]
        for option in options {
            guard let equals = option.firstIndex(of: "="), equals != option.startIndex else {
                throw ValidationError("--var '\(option)' is not name=value; write --var token=abc")
            }
            variables[String(option[..<equals])] = String(option[option.index(after: equals)...])
        }
        return variables
    }
}
