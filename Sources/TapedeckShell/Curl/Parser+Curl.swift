import Foundation

extension Parser {
    /// The statements a pasted `curl …` command (continuations joined) stands for: the
    /// translated request, whose source (what `save` writes) is the Tapedeck command, preceded
    /// by a `print` of each note.
    static func curlStatements(_ text: String, at start: SourceLocation) throws(ParseError) -> [Statement] {
        let result: CurlImport.Result
        do {
            result = try CurlImport.convert(text)
        } catch {
            throw ParseError(.invalidCurl(error.errorDescription ?? "\(error)"), at: start)
        }
        let notes = result.notes.map { note in
            Statement(command: .print(Word("note: " + note, quoted: true, location: start)), location: start,
                      source: "print " + CurlImport.quote("note: " + note))
        }
        let translated = try parseScript(result.command, file: start.file, firstLine: start.line)
        return notes + translated
    }
}
