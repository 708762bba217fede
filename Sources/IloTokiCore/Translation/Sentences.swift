import Foundation

/// Splits a line into its sentences, in the four languages' conventions.
///
/// The translators were fine-tuned on single sentences, so a line of several goes to them one
/// sentence at a time (and the sentences of a paragraph are decoded together). A sentence ends
/// at `.`, `!`, `?` or `…` (and the CJK full stops) followed by white space, with any closing
/// quotes and brackets kept with it. What does not end one:
/// - a mark inside quotes or brackets (`«Стой. Сейчас же.» И ушёл.` is two sentences, not
///   three); after the closing mark the sentence ends where a capital letter follows;
/// - a full stop after an abbreviation that never ends a sentence: titles and Latin ("Dr.",
///   "e.g."), Russian "г.", "ул.", "т. е.", Vietnamese "TP.", and an initial ("J. R. R. Tolkien");
/// - a full stop after an abbreviation that may end one ("etc.", "и т. д.", "v.v.", a single
///   lowercase letter) unless a capital letter follows;
/// - an ellipsis unless a capital letter follows (Toki Pona, written in lowercase, keeps
///   "mi pilin… ona li lon" whole);
/// - a number that begins a sentence, as a list's do ("1. Buy milk. 2. Sell it.");
/// - anything without white space after it (decimals "3.5", "example.com").
/// Toki Pona's own marks are the same: "jan Lisa o! sina pona." is two sentences, the vocative
/// one of its own. A piece with no letter or digit ("!!!", "…") stays with the sentence before.
public enum Sentences {
    /// One sentence of a line and the white space that followed it there (empty for the last).
    public struct Sentence: Equatable, Sendable {
        public var text: String
        public var spacing: String

        public init(_ text: String, spacing: String = "") {
            self.text = text
            self.spacing = spacing
        }
    }

    /// The sentences of `line`, in order; joined with their spacing they give the line back,
    /// less its leading and trailing white space.
    public static func split(_ line: String) -> [Sentence] {
        let characters = Array(line)
        let closers = balancedQuotes(characters)
        var sentences: [Sentence] = []
        var current = ""
        var expected: [Character] = []  // the closing marks awaited, innermost last
        var index = 0
        while index < characters.count {
            let character = characters[index]
            current.append(character)
            index += 1
            var closedAfterMark = false
            if closers, let last = expected.last, character == last {
                expected.removeLast()
                closedAfterMark = expected.isEmpty && index >= 2 && terminators.contains(characters[index - 2])
            } else if closers, let closer = openers[character] {
                expected.append(closer)
            }
            guard expected.isEmpty, terminators.contains(character) || closedAfterMark else { continue }
            // The whole run of marks ("?!", "..."), then white space and more text.
            while index < characters.count, terminators.contains(characters[index]) {
                current.append(characters[index])
                index += 1
            }
            guard index < characters.count, TranslationPlan.isSpace(characters[index]) else { continue }
            var spaceEnd = index
            while spaceEnd < characters.count, TranslationPlan.isSpace(characters[spaceEnd]) { spaceEnd += 1 }
            guard spaceEnd < characters.count else { continue }
            var runStart = index
            if closedAfterMark, !terminators.contains(characters[index - 1]) { runStart -= 1 }  // before the closing mark
            let runEnd = runStart
            while runStart > 0, terminators.contains(characters[runStart - 1]) { runStart -= 1 }
            let run = String(characters[runStart..<runEnd])
            let before = String(current.dropLast(index - runStart))  // this sentence, without its marks
            let next = characters[spaceEnd...]
            let ends = closedAfterMark ? capitalFollows(next) : endsSentence(run: run, before: before, next: next)
            guard ends else { continue }
            sentences.append(Sentence(current.trimmingCharacters(in: .whitespaces), spacing: String(characters[index..<spaceEnd])))
            current = ""
            index = spaceEnd
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { sentences.append(Sentence(last)) }
        return mergingMarksOnly(sentences)
    }

    // MARK: - Rules

    private static let terminators: Set<Character> = [".", "!", "?", "…", "。", "！", "？"]
    /// Each opening mark and the mark that closes it (Russian „…“ closes with the English opener).
    private static let openers: [Character: Character] = [
        "(": ")", "[": "]", "{": "}", "«": "»", "“": "”", "„": "“", "\"": "\"",
    ]

    /// Marks that only ever close.
    private static let closingOnly: Set<Character> = [")", "]", "}", "»", "”"]

    /// Whether the next word begins with a capital letter (or digit: no).
    private static func capitalFollows(_ next: ArraySlice<Character>) -> Bool {
        next.first(where: { $0.isLetter || $0.isNumber }).map(\.isUppercase) ?? false
    }

    /// Whether the line's quotes and brackets pair up; a stray one would otherwise keep the
    /// rest of the line from ever being split, so then they are not followed at all.
    private static func balancedQuotes(_ characters: [Character]) -> Bool {
        var expected: [Character] = []
        for character in characters {
            if let last = expected.last, character == last {
                expected.removeLast()
            } else if let closer = openers[character] {
                expected.append(closer)
            } else if closingOnly.contains(character) {
                return false
            }
        }
        return expected.isEmpty
    }

    /// Abbreviations after which a full stop never ends a sentence (lowercased, without their
    /// last full stop).
    private static let neverEnding: Set<String> = [
        // English
        "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "vs", "e.g", "i.e", "cf", "viz", "approx", "fig", "dept",
        // Russian
        "г", "гг", "ул", "стр", "см", "рис", "напр", "им", "проф", "доц", "акад", "тыс", "млн", "млрд", "руб", "коп", "т.е",
        "т.к", "пер", "просп", "обл",
        // Vietnamese
        "tp", "ts", "ths", "pgs", "gs", "bs", "ks",
    ]

    /// Abbreviations that may end a sentence: they do where a capital letter follows.
    private static let mayEnd: Set<String> = ["etc", "т.д", "т.п", "др", "пр", "v.v", "inc", "ltd", "co", "no", "corp"]

    private static func endsSentence(
        run: String, before: String, next: ArraySlice<Character>
    ) -> Bool {
        let capitalFollows = capitalFollows(next)
        if run.contains("…") || run.contains("..") { return capitalFollows }
        guard run == "." else { return true }
        let word = String(before.split(whereSeparator: TranslationPlan.isSpace).last ?? "")
            .trimmingCharacters(in: CharacterSet(charactersIn: "([{«“„\"'"))
        let lower = word.lowercased()
        if before.trimmingCharacters(in: .whitespaces) == word, !word.isEmpty, word.allSatisfy(\.isNumber) {
            return false  // a list's number: "1. Buy milk. 2. Sell it."
        }
        if neverEnding.contains(lower) { return false }
        if word.count == 1, let letter = word.first, letter.isLetter {
            return letter.isUppercase ? false : capitalFollows  // "J. R. R. Tolkien"; "и т. д. Потом"
        }
        if mayEnd.contains(lower) { return capitalFollows }
        // "U.S.", "a.m.": letters with full stops inside.
        if word.contains("."), word.split(separator: ".").allSatisfy({ $0.count <= 2 && $0.allSatisfy(\.isLetter) }) {
            return capitalFollows
        }
        return true
    }

    /// A piece with nothing to translate joins the sentence before it.
    private static func mergingMarksOnly(_ sentences: [Sentence]) -> [Sentence] {
        var merged: [Sentence] = []
        for sentence in sentences {
            if let previous = merged.last, !sentence.text.contains(where: { $0.isLetter || $0.isNumber }) {
                merged[merged.count - 1] = Sentence(previous.text + previous.spacing + sentence.text, spacing: sentence.spacing)
            } else {
                merged.append(sentence)
            }
        }
        return merged
    }
}
