import Foundation

/// Quotes text as one word of a POSIX shell and of the command language (which reads quotes
/// the same way): plain when it holds only characters no shell splits or expands, else
/// single-quoted with each `'` written `'\''`, so nothing is lost.
///
/// ```swift
/// ShellWord.quote("Sessions/tour.cassette.json")   // Sessions/tour.cassette.json
/// ShellWord.quote("it's here")                     // 'it'\''s here'
/// ```
package enum ShellWord {
    /// `text` as one word (see the type's summary).
    package static func quote(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./:=@,+%".unicodeScalars.contains($0))
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
