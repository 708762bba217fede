/// Splits text into the pieces that are translated one by one, and puts the translations
/// back together.
///
/// Multi-line text is translated line by line (the models are trained on single lines, and
/// a line break in a poem or a list must survive); blank lines are kept as they are. A line
/// too long for the model's context is split at sentence ends, and a sentence still too
/// long at word boundaries, so nothing the user typed is ever dropped.
public struct TranslationPlan: Equatable, Sendable {
    /// One line of the source.
    public struct Line: Equatable, Sendable {
        /// The pieces of the line to translate, in order; empty for a blank line.
        public var chunks: [String]
        /// Whether the line has nothing to translate.
        public var isBlank: Bool { chunks.isEmpty }
    }

    public var lines: [Line]

    /// Every chunk in reading order.
    public var chunks: [String] { lines.flatMap(\.chunks) }

    /// Plans the translation of `text`.
    /// - Parameters:
    ///   - text: the source text, any number of lines.
    ///   - fits: whether a chunk is short enough to translate in one go.
    public init(_ text: String, fits: (String) -> Bool = { _ in true }) {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return Line(chunks: trimmed.isEmpty ? [] : TranslationPlan.split(trimmed, fits: fits))
        }
        // Trailing blank lines carry no meaning and are not kept (leading ones neither).
        while lines.last?.isBlank == true { lines.removeLast() }
        while lines.first?.isBlank == true { lines.removeFirst() }
    }

    /// Joins translations back together: chunks of a line with a space, lines with line
    /// breaks, blank lines where they were.
    /// - Parameter translations: one translation per chunk, in the order of `chunks`; a
    ///   shorter list (a translation still streaming) assembles what there is.
    public func assemble(_ translations: [String]) -> String {
        var remaining = translations[...]
        var output: [String] = []
        for line in lines {
            guard !remaining.isEmpty else { break }
            if line.isBlank {
                output.append("")
                continue
            }
            let parts = remaining.prefix(line.chunks.count).map { $0.trimmingCharacters(in: .whitespaces) }
            remaining = remaining.dropFirst(parts.count)
            output.append(parts.filter { !$0.isEmpty }.joined(separator: " "))
        }
        return output.joined(separator: "\n")
    }

    // MARK: - Splitting

    static func split(_ line: String, fits: (String) -> Bool) -> [String] {
        if fits(line) { return [line] }
        var chunks: [String] = []
        var current = ""
        for sentence in sentences(of: line) {
            let candidate = current.isEmpty ? sentence : current + " " + sentence
            if fits(candidate) {
                current = candidate
                continue
            }
            if !current.isEmpty { chunks.append(current) }
            if fits(sentence) {
                current = sentence
            } else {
                let pieces = splitAtWords(sentence, fits: fits)
                chunks += pieces.dropLast()
                current = pieces.last ?? ""
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }

    /// Sentences with their closing punctuation (and quotes) kept.
    static func sentences(of line: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        var previousEndsSentence = false
        for character in line {
            if previousEndsSentence, isSpace(character) {
                let trimmed = current.trimmingCharacters(in: .whitespaces)
                if !trimmed.isEmpty { sentences.append(trimmed) }
                current = ""
                previousEndsSentence = false
                continue
            }
            current.append(character)
            if sentenceEnds.contains(character) {
                previousEndsSentence = true
            } else if !closingMarks.contains(character) {
                previousEndsSentence = false
            }
        }
        let trimmed = current.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty { sentences.append(trimmed) }
        return sentences
    }

    /// White space that separates words: every scalar of the Character is white space. A
    /// space that carries a combining mark is one Character whose first scalar is a space;
    /// dropped as a separator, it would take the mark with it (found by the segmenter fuzzer).
    static func isSpace(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    private static let sentenceEnds: Set<Character> = [".", "!", "?", "…", "。", "！", "？", ";"]
    private static let closingMarks: Set<Character> = ["\"", "'", "»", "”", "’", ")", "]"]

    /// Word-sized pieces for a sentence too long on its own; a single word too long is cut
    /// between characters as a last resort.
    static func splitAtWords(_ sentence: String, fits: (String) -> Bool) -> [String] {
        var chunks: [String] = []
        var current = ""
        for word in sentence.split(whereSeparator: isSpace).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if fits(candidate) {
                current = candidate
                continue
            }
            if !current.isEmpty { chunks.append(current) }
            current = ""
            if fits(word) {
                current = word
            } else {
                for character in word {
                    if !current.isEmpty, !fits(current + String(character)) {
                        chunks.append(current)
                        current = ""
                    }
                    current.append(character)
                }
            }
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }
}
