import Foundation
import Tapedeck

/// Makes text from a server safe to show on a terminal: control characters (ESC, BEL, a lone
/// CR, DEL, the C1 range such as U+009B) are shown as visible escapes like `\x1b` instead of
/// being interpreted, so a response cannot retitle the window (`ESC]0;…BEL`), clear the screen
/// (`ESC[2J`) or hide text. Tabs and line breaks stay as they are. Only terminal output goes
/// through it; piped output is written byte for byte.
///
/// ```swift
/// TerminalText.visible("a\u{1B}[2Jb")   // "a\\x1b[2Jb"
/// ```
public enum TerminalText {
    /// `text` with every control character but tab (and, when `keepLineBreaks`, LF and CRLF)
    /// replaced by `\xNN` (`\u{NNNN}` above U+00FF).
    public static func visible(_ text: String, keepLineBreaks: Bool = true) -> String {
        ControlText.visible(text, keepLineBreaks: keepLineBreaks)
    }
}
