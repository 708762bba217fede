import Foundation

/// Tells which of the languages a text is in, offline, to pick the translation direction.
///
/// Each language's row in the languages' table (`Language.mark`, LanguageCharacters.swift)
/// says what marks its text, and the detector counts each language's marks. Toki Pona is easy to recognise: a small closed vocabulary and a strict syllable shape
/// ((C)V(n), consonants p t k s m n l j w, no ji/ti/wo/wu). Words that are also everyday
/// words of English ("a", "open", "mama") prove nothing either way; common English words and
/// words that cannot be Toki Pona count against it, so English that quotes Toki Pona ("I love
/// toki pona") stays English. Text that is not Toki Pona is told apart by its letters: a script
/// of its own (Cyrillic: Russian), letters of its own within Latin (Vietnamese's ă đ ơ and tone
/// marks), or none (other Latin: English).
/// Vietnamese typed without its marks cannot be told from English by letters alone.
public enum LanguageDetector {
    /// What the detector found.
    public struct Result: Equatable, Sendable {
        /// The language the text is most likely in.
        public let language: Language
        /// How sure the detector is that the text is Toki Pona, from 0 to 1.
        public let tokiPonaConfidence: Double
        /// Whether the text reads as Toki Pona.
        var isTokiPona: Bool { language == .tokiPona }
    }

    /// What a text says about its language.
    public enum Verdict: Equatable, Sendable {
        /// The text is in this language.
        case language(Language)
        /// The text does not say: only words that Toki Pona shares with other languages
        /// ("a", "mama", "open"), or no letters at all.
        case undecided
        /// The text is in a script none of the four languages is written in (the script is named).
        case unsupportedScript(String)
    }

    /// Confidence from which text counts as Toki Pona.
    public static let threshold = 0.6

    /// Guesses the language of `text` (English when it cannot tell).
    public static func detect(_ text: String) -> Result {
        let text = text.precomposedStringWithCanonicalMapping
        return detect(text, letters: LetterCount(text))
    }

    /// `detect` of a text already normalised, with its letters already counted.
    private static func detect(_ text: String, letters: LetterCount) -> Result {
        let confidence = tokiPonaConfidence(of: text)
        if confidence >= threshold { return Result(language: .tokiPona, tokiPonaConfidence: confidence) }
        return Result(language: letters.language, tokiPonaConfidence: confidence)
    }

    /// What `text` says about its language, including when it says nothing.
    public static func verdict(for text: String) -> Verdict {
        let text = text.precomposedStringWithCanonicalMapping
        let letters = LetterCount(text)
        if let foreign = letters.dominantForeignScript { return .unsupportedScript(foreign) }
        let words = words(of: text)
        guard !words.isEmpty else { return .undecided }
        if letters.marksALanguage { return .language(letters.language) }
        if words.allSatisfy({ sharedWithOtherLanguages.contains($0.lowercased()) }) { return .undecided }
        return .language(detect(text, letters: letters).language)
    }

    /// 0…1: how much of the text's evidence speaks for Toki Pona. Toki Pona words count for
    /// it (capitalised names in Toki Pona shape a little), common English words and words that
    /// cannot be Toki Pona against it; words shared with other languages count for nothing.
    /// Zero without a single Toki Pona word that is not shared, or in another script.
    public static func tokiPonaConfidence(of text: String) -> Double {
        let text = text.precomposedStringWithCanonicalMapping
        if text.unicodeScalars.contains(where: { isForeignLetter($0) }) { return 0 }
        let words = words(of: text)
        guard !words.isEmpty else { return 0 }

        var known = 0
        var evidenceFor = 0.0
        var evidenceAgainst = 0.0
        for (index, word) in words.enumerated() {
            let lower = word.lowercased()
            if sharedWithOtherLanguages.contains(lower) {
                continue  // "a", "open", "mama" prove nothing on their own
            } else if englishWords.contains(lower) {
                evidenceAgainst += 1.5
            } else if vocabulary.contains(lower) {
                known += 1
                evidenceFor += 1
            } else if !hasTokiPonaShape(lower) {
                evidenceAgainst += 1
            } else if word.first?.isUppercase == true, index > 0 || words.count > 1 {
                // Proper names are adapted to Toki Pona sounds and capitalised (jan Sonja, ma Kanata).
                evidenceFor += 0.8
            } else {
                // An unknown word that could be Toki Pona: a newer word or a typo.
                evidenceFor += 0.3
            }
        }
        guard known > 0 else { return 0 }
        return evidenceFor / (evidenceFor + evidenceAgainst)
    }

    /// Whether `word` (lowercase) is made of Toki Pona syllables.
    public static func hasTokiPonaShape(_ word: String) -> Bool {
        let letters = Array(word)
        guard !letters.isEmpty else { return false }
        var index = 0
        var first = true
        while index < letters.count {
            var consonant: Character?
            if consonants.contains(letters[index]) {
                consonant = letters[index]
                index += 1
            } else if !first {
                return false  // only a word's first syllable may start with a vowel
            }
            guard index < letters.count, vowels.contains(letters[index]) else { return false }
            let vowel = letters[index]
            index += 1
            if let consonant, forbiddenSyllables.contains(String([consonant, vowel])) { return false }
            // A syllable may end in n, unless a vowel or another n or m follows.
            if index < letters.count, letters[index] == "n" {
                let after = index + 1 < letters.count ? letters[index + 1] : nil
                if after == nil || (consonants.contains(after!) && after != "n" && after != "m") {
                    index += 1
                }
            }
            first = false
        }
        return true
    }

    // MARK: - Other languages

    static func words(of text: String) -> [String] {
        text.split { !$0.isLetter }.map(String.init)
    }

    /// A text's letters counted for each language's mark (the languages' table,
    /// LanguageCharacters.swift), and the letters of scripts none of the languages is written in.
    struct LetterCount {
        /// Letters of the scripts the languages are written in (Latin counted whole).
        var known = 0
        /// For each language, how many of the letters are its mark (`.script` or `.letters`).
        var marked: [Language: Int] = [:]
        var foreign: [String: Int] = [:]

        init(_ text: String) {
            for scalar in text.unicodeScalars where scalar.properties.isAlphabetic {
                if Self.knownLetters.contains(scalar) {
                    if !CharacterClass.combiningMarks.contains(scalar) { known += 1 }
                } else {
                    foreign[Self.scriptName(scalar), default: 0] += 1
                }
                for (language, letters) in Self.marks where letters.contains(scalar) {
                    marked[language, default: 0] += 1
                }
            }
        }

        /// Every Latin letter, and every letter any of the languages writes.
        static let knownLetters = Language.allCases.map(\.letters).reduce(CharacterClass.latinLetters, +)

        /// The languages that letters mark, with their letters.
        static let marks: [(Language, CharacterClass)] = Language.allCases.compactMap { language in
            switch language.mark {
            case .script(let letters), .letters(let letters): (language, letters)
            case .words, .latinUnmarked: nil
            }
        }

        /// Whether any letter marks a language.
        var marksALanguage: Bool { marked.values.contains { $0 > 0 } }

        /// The language the letters say: one with a script of its own when at least half the
        /// letters are in it; else the one whose own letters are the most; else the Latin
        /// script's unmarked language.
        var language: Language {
            let scripts = Language.allCases.filter { if case .script = $0.mark { true } else { false } }
            for language in scripts {
                let count = marked[language, default: 0]
                if count > 0, count >= known - count { return language }
            }
            let lettered = Language.allCases.filter { if case .letters = $0.mark { true } else { false } }
            if let (language, count) = lettered.map({ ($0, marked[$0, default: 0]) }).max(by: { $0.1 < $1.1 }), count > 0 {
                return language
            }
            return Language.allCases.first { $0.mark == .latinUnmarked } ?? .english
        }

        /// The foreign script most of the letters are in, if most are.
        var dominantForeignScript: String? {
            guard let (name, count) = foreign.max(by: { $0.value < $1.value }) else { return nil }
            return count > known ? name : nil
        }

        static func scriptName(_ scalar: Unicode.Scalar) -> String {
            switch scalar.value {
            case 0x3040...0x30FF, 0x31F0...0x31FF: "Japanese"
            case 0xAC00...0xD7AF, 0x1100...0x11FF, 0x3130...0x318F: "Korean"
            case 0x4E00...0x9FFF, 0x3400...0x4DBF: "Chinese"
            case 0x0370...0x03FF, 0x1F00...0x1FFF: "Greek"
            case 0x0590...0x05FF: "Hebrew"
            case 0x0600...0x06FF, 0x0750...0x077F: "Arabic"
            case 0x0900...0x097F: "Devanagari"
            case 0x0E00...0x0E7F: "Thai"
            case 0x10A0...0x10FF: "Georgian"
            case 0x0530...0x058F: "Armenian"
            case 0xF1900...0xF19FF: "sitelen pona"
            default: "another script"
            }
        }
    }

    /// Letters no Toki Pona text contains (other scripts, accented Latin).
    static func isForeignLetter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.isAlphabetic else { return false }
        return scalar.value > 0x7F
    }

    static let consonants: Set<Character> = ["p", "t", "k", "s", "m", "n", "l", "j", "w"]
    static let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    static let forbiddenSyllables: Set<String> = ["ji", "ti", "wo", "wu"]

    /// Toki Pona words that are also common words (or names) in English: "a man", "open",
    /// "Mama" must not turn English into Toki Pona.
    static let sharedWithOtherLanguages: Set<String> = [
        "a", "e", "o", "n", "en", "ma", "mama", "ken", "pan", "tan", "sin", "mu", "open", "ante",
        "ale", "kin", "su", "uta", "jan", "mun", "mute",
    ]

    /// Common English words, none of them Toki Pona: a sentence with them is English, even
    /// when it quotes Toki Pona.
    static let englishWords: Set<String> = [
        "i", "me", "my", "you", "your", "he", "him", "his", "she", "her", "it", "its", "we", "us", "our", "they",
        "them", "their", "this", "that", "these", "those", "what", "who", "whom", "which", "where", "when",
        "why", "how", "the", "an", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "from",
        "with", "about", "into", "is", "am", "are", "was", "were", "be", "been", "being", "do", "does", "did",
        "have", "has", "had", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
        "not", "no", "yes", "so", "very", "all", "some", "any", "one", "two", "love", "like", "mean", "means",
        "say", "says", "said", "word", "words", "language", "speak", "good", "bad", "hello", "hi", "thanks",
        "thank", "please", "eat", "eats", "go", "goes", "come", "see", "know", "want", "there", "here", "now",
        "today", "time", "day", "people", "person", "man", "woman", "water", "house", "friend", "morning",
    ]

    /// The official vocabulary: the 120 words of Toki Pona: The Language of Good (pu), the
    /// 17 "ku suli" words of the Toki Pona Dictionary (ku), and a few common newer words.
    static let vocabulary: Set<String> = [
        // pu
        "a", "akesi", "ala", "alasa", "ale", "ali", "anpa", "ante", "anu", "awen", "e", "en", "esun",
        "ijo", "ike", "ilo", "insa", "jaki", "jan", "jelo", "jo", "kala", "kalama", "kama", "kasi",
        "ken", "kepeken", "kili", "kiwen", "ko", "kon", "kule", "kulupu", "kute", "la", "lape", "laso",
        "lawa", "len", "lete", "li", "lili", "linja", "lipu", "loje", "lon", "luka", "lukin", "lupa",
        "ma", "mama", "mani", "meli", "mi", "mije", "moku", "moli", "monsi", "mu", "mun", "musi",
        "mute", "nanpa", "nasa", "nasin", "nena", "ni", "nimi", "noka", "o", "olin", "ona", "open",
        "pakala", "pali", "palisa", "pan", "pana", "pi", "pilin", "pimeja", "pini", "pipi", "poka",
        "poki", "pona", "pu", "sama", "seli", "selo", "seme", "sewi", "sijelo", "sike", "sin", "sina",
        "sinpin", "sitelen", "sona", "soweli", "suli", "suno", "supa", "suwi", "tan", "taso", "tawa",
        "telo", "tenpo", "toki", "tomo", "tu", "unpa", "uta", "utala", "walo", "wan", "waso", "wawa",
        "weka", "wile",
        // ku suli
        "epiku", "jasima", "kijetesantakalu", "kin", "kipisi", "kokosila", "ku", "lanpan", "leko",
        "meso", "misikeke", "monsuta", "n", "namako", "oko", "soko", "tonsi",
        // common newer words
        "apeja", "linluwi", "majuna", "pake", "powe", "su", "kiki", "teje",
    ]
}

/// Why a text cannot be translated in any direction.
public enum DirectionError: Error, LocalizedError, Equatable, Sendable {
    /// The text is in a script none of the four languages use.
    case unsupportedScript(String)

    public var errorDescription: String? {
        switch self {
        case .unsupportedScript(let script):
            "ilo toki cannot translate this text: it is in \(script == "another script" ? "a script of another language" : script + " script"), and ilo toki translates between Toki Pona and English, Russian and Vietnamese."
        }
    }
}

extension LanguageDetector {
    /// The direction for `text`, given the one the user used last (the command line, and the
    /// slab when no language was chosen by hand):
    /// - Toki Pona goes into the last other language;
    /// - Russian and Vietnamese go into Toki Pona;
    /// - other Latin text goes into Toki Pona as English, or as Vietnamese when Vietnamese was
    ///   the last language and the text has no common English word (Vietnamese typed without
    ///   its marks looks like English);
    /// - text that does not say (only words Toki Pona shares with English) keeps the last direction.
    /// - Throws: `DirectionError.unsupportedScript` for text in another script.
    public static func direction(for text: String, last: TranslationDirection) throws -> TranslationDirection {
        switch verdict(for: TranslationPrompt.prepare(text)) {
        case .undecided:
            return last
        case .unsupportedScript(let script):
            throw DirectionError.unsupportedScript(script)
        case .language(.tokiPona):
            return last.isFromTokiPona ? last : .fromTokiPona(to: last.otherLanguage)
        case .language(.english):
            let words = words(of: text.lowercased())
            if last.otherLanguage == .vietnamese, !words.contains(where: englishWords.contains) { return .toTokiPona(from: .vietnamese) }
            return .englishToTokiPona
        case .language(let language):
            return .toTokiPona(from: language)
        }
    }
}
