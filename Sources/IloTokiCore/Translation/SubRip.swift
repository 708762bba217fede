import Foundation

/// Subtitles in the SubRip format (`.srt`): numbered cues, each a time range and a few lines
/// of text, separated by blank lines.
///
/// ```
/// 1
/// 00:00:01,000 --> 00:00:03,500
/// Hello!
/// How are you?
/// ```
///
/// Translating a file keeps everything but the text as it was: the numbers, the times (with
/// any position the time line carries), the blank lines between cues. Each cue is translated
/// as its own text, its lines joined (a sentence often runs over two lines), and the
/// translation put back on as many lines as the cue had.
public struct SubRip: Equatable, Sendable {
    public struct Cue: Equatable, Sendable {
        /// The cue's number line as written ("1"); empty when the file left it out.
        public var number: String
        /// The time line as written ("00:00:01,000 --> 00:00:03,500").
        public var timing: String
        /// The text's lines.
        public var lines: [String]

        public init(number: String, timing: String, lines: [String]) {
            self.number = number
            self.timing = timing
            self.lines = lines
        }

        /// The cue's text as one piece to translate.
        public var text: String { lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ") }
    }

    public var cues: [Cue]
    /// The file's line ending, kept when it is written again: "\n", or "\r\n" as many
    /// subtitle tools write.
    public var lineEnding: String

    public init(cues: [Cue], lineEnding: String = "\n") {
        self.cues = cues
        self.lineEnding = lineEnding
    }

    /// Reads a SubRip file's text (with or without a byte order mark, with `\n` or `\r\n`).
    /// - Throws: `SubRipError.noCues` when no block has a time line.
    public init(parsing source: String) throws(SubRipError) {
        var text = source
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var cues: [Cue] = []
        var index = 0
        while index < lines.count {
            // A block: an optional number, a time line, then text up to a blank line.
            while index < lines.count, lines[index].trimmingCharacters(in: .whitespaces).isEmpty { index += 1 }
            guard index < lines.count else { break }
            var number = ""
            if !Self.isTiming(lines[index]), index + 1 < lines.count, Self.isTiming(lines[index + 1]) {
                number = lines[index].trimmingCharacters(in: .whitespaces)
                index += 1
            }
            guard Self.isTiming(lines[index]) else {
                throw SubRipError.notSubRip(line: index + 1)
            }
            let timing = lines[index]
            index += 1
            var body: [String] = []
            while index < lines.count, !lines[index].trimmingCharacters(in: .whitespaces).isEmpty {
                body.append(lines[index])
                index += 1
            }
            cues.append(Cue(number: number, timing: timing, lines: body))
        }
        guard !cues.isEmpty else { throw SubRipError.noCues }
        self.cues = cues
        lineEnding = text.contains("\r\n") ? "\r\n" : "\n"
    }

    /// The file's text: each cue's number, time line and lines, a blank line after each.
    public func rendered() -> String {
        cues.map(render).joined()
    }

    /// One cue as it is written in the file, with the blank line after it.
    public func render(_ cue: Cue) -> String {
        ((cue.number.isEmpty ? [] : [cue.number]) + [cue.timing] + cue.lines + [""]).map { $0 + lineEnding }.joined()
    }

    /// `text` on `count` lines, cut between words as evenly as they allow (a two-line cue gets
    /// two lines of about the same length); fewer lines when there are fewer words.
    public static func lines(_ text: String, count: Int) -> [String] {
        let words = text.split(whereSeparator: TranslationPlan.isSpace).map(String.init)
        guard count > 1, words.count > 1 else { return text.isEmpty ? [] : [words.joined(separator: " ")] }
        var lines: [String] = []
        var remaining = words[...]
        for line in 0..<count {
            let linesLeft = count - line
            if linesLeft == 1 || remaining.count <= 1 {
                lines.append(remaining.joined(separator: " "))
                break
            }
            // Take words until this line holds its share of what is left.
            let target = remaining.joined(separator: " ").count / linesLeft
            var taken: [String] = []
            var length = 0
            while let word = remaining.first, remaining.count > linesLeft - 1 {
                let next = length + (taken.isEmpty ? 0 : 1) + word.count
                if !taken.isEmpty, abs(next - target) > abs(length - target) { break }
                taken.append(word)
                length = next
                remaining = remaining.dropFirst()
            }
            lines.append(taken.joined(separator: " "))
        }
        return lines.filter { !$0.isEmpty }
    }

    private static func isTiming(_ line: String) -> Bool {
        line.contains("-->") && line.contains(where: \.isNumber)
    }
}

/// Why a file could not be read as subtitles.
public enum SubRipError: Error, Equatable, Sendable, LocalizedError {
    /// A block whose first line is neither a cue number before a time line nor a time line.
    case notSubRip(line: Int)
    /// Not a single cue.
    case noCues

    public var errorDescription: String? {
        switch self {
        case .notSubRip(let line):
            "it is not a SubRip subtitle file: line \(line) should be a cue's time line (00:00:01,000 --> 00:00:03,500)"
        case .noCues:
            "it has no subtitles in it"
        }
    }
}
