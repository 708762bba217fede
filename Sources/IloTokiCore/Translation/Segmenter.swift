/// Splits text into the pieces that are translated one by one, and puts the translations
/// back together.
///
/// Multi-line text is translated line by line (a line break in a poem or a list must
/// survive); blank lines are kept as they are. By sentence (the apps' default), each line is
/// split into its sentences (`Sentences`), which is what the translators were trained on and
/// what lets a paragraph's sentences be decoded together; whole lines otherwise. A piece too
/// long for the model's context is split at sentence ends, and a sentence still too long where
/// its clauses end (`Clauses`). A sentence that has no such place to split, or a clause still
/// too long, is recorded in `overlong` (the translator refuses it, naming it); its chunks are
/// then cut between words so that the plan still covers every character of the text.
public struct TranslationPlan: Equatable, Sendable {
    /// One line of the source.
    public struct Line: Equatable, Sendable {
        /// The pieces of the line to translate, in order; empty for a blank line.
        public var chunks: [String]
        /// The white space after each chunk in the source (empty after the last).
        public var spacings: [String]
        /// Whether the line has nothing to translate.
        public var isBlank: Bool { chunks.isEmpty }

        init(_ pieces: [Sentences.Sentence]) {
            chunks = pieces.map(\.text)
            spacings = pieces.enumerated().map { $0.offset == pieces.count - 1 ? "" : $0.element.spacing }
        }
    }

    public var lines: [Line]

    /// The first sentence that could not be split into pieces that fit, even where its
    /// clauses end; `nil` when every piece fits.
    public private(set) var overlong: Overlong?

    /// A sentence too long to translate: its line in `lines` (from 0) and its text.
    public struct Overlong: Equatable, Sendable {
        public var line: Int
        public var sentence: String

        public init(line: Int, sentence: String) {
            self.line = line
            self.sentence = sentence
        }
    }

    /// Every chunk in reading order.
    public var chunks: [String] { lines.flatMap(\.chunks) }

    /// Plans the translation of `text`.
    /// - Parameters:
    ///   - text: the source text, any number of lines.
    ///   - bySentence: each sentence on its own; `false` keeps each line whole where it fits.
    ///   - fits: whether a chunk is short enough to translate in one go.
    public init(_ text: String, bySentence: Bool = false, fits: (String) -> Bool = { _ in true }) {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var overlong: Overlong?
        var all = normalized.split(separator: "\n", omittingEmptySubsequences: false).enumerated().map { number, line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return Line([]) }
            let noteOverlong = { (sentence: String) in
                if overlong == nil { overlong = Overlong(line: number, sentence: sentence) }
            }
            guard bySentence else { return Line(TranslationPlan.split(trimmed, fits: fits, overlong: noteOverlong)) }
            return Line(
                Sentences.split(trimmed).flatMap { sentence in
                    var pieces = TranslationPlan.split(sentence.text, fits: fits, overlong: noteOverlong)
                    pieces[pieces.count - 1].spacing = sentence.spacing
                    return pieces
                })
        }
        // Trailing blank lines carry no meaning and are not kept (leading ones neither).
        while all.last?.isBlank == true { all.removeLast() }
        let leading = all.prefix { $0.isBlank }.count
        lines = Array(all.dropFirst(leading))
        self.overlong = overlong.map { Overlong(line: $0.line - leading, sentence: $0.sentence) }
    }

    /// Joins translations back together: chunks of a line with the spacing they had in the
    /// source, lines with line breaks, blank lines where they were.
    /// - Parameter translations: one translation per chunk, in the order of `chunks`; a
    ///   shorter list (a translation still streaming) assembles what there is, and an empty
    ///   one (a sentence not begun) takes no room.
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
            var joined = ""
            for (index, part) in parts.enumerated() where !part.isEmpty {
                if !joined.isEmpty { joined += line.spacings[index - 1].isEmpty ? " " : line.spacings[index - 1] }
                joined += part
            }
            output.append(joined)
        }
        return output.joined(separator: "\n")
    }

    // MARK: - Splitting

    /// `line` in pieces that fit: whole, or its sentences grouped while they fit, a sentence
    /// too long at its clauses, and one that still does not fit (told to `overlong`) at its words.
    static func split(_ line: String, fits: (String) -> Bool, overlong: (String) -> Void = { _ in }) -> [Sentences.Sentence] {
        if fits(line) { return [Sentences.Sentence(line)] }
        var chunks: [Sentences.Sentence] = []
        var current = ""
        var currentSpacing = ""
        for sentence in Sentences.split(line) {
            let candidate = current.isEmpty ? sentence.text : current + currentSpacing + sentence.text
            if fits(candidate) {
                current = candidate
                currentSpacing = sentence.spacing
                continue
            }
            if !current.isEmpty { chunks.append(Sentences.Sentence(current, spacing: currentSpacing)) }
            if fits(sentence.text) {
                current = sentence.text
            } else if let clauses = Clauses.group(sentence.text, fits: fits) {
                chunks += clauses.dropLast()
                current = clauses.last?.text ?? ""
            } else {
                overlong(sentence.text)
                let pieces = splitAtWords(sentence.text, fits: fits)
                chunks += pieces.dropLast().map { Sentences.Sentence($0, spacing: " ") }
                current = pieces.last ?? ""
            }
            currentSpacing = sentence.spacing
        }
        if !current.isEmpty { chunks.append(Sentences.Sentence(current, spacing: currentSpacing)) }
        return chunks
    }

    /// White space that separates words: every scalar of the Character is white space. A
    /// space that carries a combining mark is one Character whose first scalar is a space;
    /// dropped as a separator, it would take the mark with it (found by the segmenter fuzzer).
    public static func isSpace(_ character: Character) -> Bool {
        character.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

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
