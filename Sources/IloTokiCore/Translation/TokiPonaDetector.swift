import Foundation

/// Tells whether text is Toki Pona, offline, to pick the translation direction.
///
/// Toki Pona is easy to recognise: a small closed vocabulary and a strict syllable shape
/// ((C)V(n), consonants p t k s m n l j w, no ji/ti/wo/wu). Text that is not Toki Pona is
/// told apart by script: Cyrillic is Russian, Latin with Vietnamese letters or tone marks is
/// Vietnamese, other Latin is English.
public enum TokiPonaDetector {
    /// What the detector found.
    public struct Result: Equatable, Sendable {
        /// The language the text is most likely in.
        public let language: Language
        /// How sure the detector is that the text is Toki Pona, from 0 to 1.
        public let tokiPonaConfidence: Double
        /// Whether the text reads as Toki Pona.
        public var isTokiPona: Bool { language == .tokiPona }
    }

    /// Confidence from which text counts as Toki Pona.
    public static let threshold = 0.6

    /// Guesses the language of `text`.
    public static func detect(_ text: String) -> Result {
        let text = text.precomposedStringWithCanonicalMapping
        let confidence = tokiPonaConfidence(of: text)
        if confidence >= threshold { return Result(language: .tokiPona, tokiPonaConfidence: confidence) }
        return Result(language: otherLanguage(of: text), tokiPonaConfidence: confidence)
    }

    /// 0…1: the share of words that are Toki Pona words (proper names in Toki Pona shape
    /// count almost as much), zero for text in another script or without a single Toki Pona
    /// word that is not also an everyday word of English.
    public static func tokiPonaConfidence(of text: String) -> Double {
        let text = text.precomposedStringWithCanonicalMapping
        if text.unicodeScalars.contains(where: { isForeignLetter($0) }) { return 0 }
        let words = text.split { !$0.isLetter }.map(String.init)
        guard !words.isEmpty else { return 0 }

        var score = 0.0
        var known = 0
        for (index, word) in words.enumerated() {
            let lower = word.lowercased()
            if sharedWithOtherLanguages.contains(lower) {
                // "a", "open", "man"-like words prove nothing on their own.
                score += 0.6
            } else if vocabulary.contains(lower) {
                known += 1
                score += 1
            } else if word.first?.isUppercase == true, index > 0 || words.count > 1, hasTokiPonaShape(lower) {
                // Proper names are adapted to Toki Pona sounds and capitalised (jan Sonja, ma Kanata).
                score += 0.8
            } else if hasTokiPonaShape(lower) {
                // An unknown word that could be Toki Pona: a newer word or a typo.
                score += 0.3
            }
        }
        guard known > 0 else { return 0 }
        return score / Double(words.count)
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

    static func otherLanguage(of text: String) -> Language {
        var cyrillic = 0
        var latin = 0
        var vietnamese = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0400...0x04FF: cyrillic += 1
            case 0x41...0x5A, 0x61...0x7A, 0xC0...0x024F, 0x1E00...0x1EFF: latin += 1
            default: break
            }
            if vietnameseLetters.contains(scalar) || (0x1EA0...0x1EF9).contains(scalar.value) { vietnamese += 1 }
        }
        if cyrillic > 0, cyrillic >= latin { return .russian }
        if vietnamese > 0 { return .vietnamese }
        return .english
    }

    /// Letters no Toki Pona text contains (other scripts, accented Latin).
    static func isForeignLetter(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.properties.isAlphabetic else { return false }
        return scalar.value > 0x7F
    }

    static let consonants: Set<Character> = ["p", "t", "k", "s", "m", "n", "l", "j", "w"]
    static let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    static let forbiddenSyllables: Set<String> = ["ji", "ti", "wo", "wu"]

    /// Letters that only Vietnamese uses among the four languages: ă â đ ê ô ơ ư (any case),
    /// and the precomposed letters with tone marks (U+1EA0…U+1EF9) checked separately.
    static let vietnameseLetters: Set<Unicode.Scalar> = [
        "ă", "â", "đ", "ê", "ô", "ơ", "ư", "Ă", "Â", "Đ", "Ê", "Ô", "Ơ", "Ư",
        "à", "á", "ã", "è", "é", "ì", "í", "ĩ", "ò", "ó", "õ", "ù", "ú", "ũ", "ý",
        "À", "Á", "Ã", "È", "É", "Ì", "Í", "Ĩ", "Ò", "Ó", "Õ", "Ù", "Ú", "Ũ", "Ý",
    ]

    /// Toki Pona words that are also common words (or names) in English: "a man", "open",
    /// "Mama" must not turn English into Toki Pona.
    static let sharedWithOtherLanguages: Set<String> = [
        "a", "e", "o", "n", "en", "ma", "mama", "ken", "pan", "tan", "sin", "mu", "open", "ante",
        "ale", "kin", "su", "uta", "jan", "mun",
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

extension TokiPonaDetector {
    /// The direction `text` asks for, or `nil` when the current one fits (or the text says too
    /// little to tell). Toki Pona text goes to the current other language; text in another
    /// language goes into Toki Pona, from the language found (English stays whatever Latin
    /// language was chosen, as Vietnamese typed without marks looks like English).
    public static func direction(for text: String, current: TranslationDirection) -> TranslationDirection? {
        let prepared = TranslationPrompt.prepare(text)
        guard prepared.contains(where: \.isLetter) else { return nil }
        let result = detect(prepared)
        if result.isTokiPona {
            return current.isFromTokiPona ? nil : .fromTokiPona(to: current.otherLanguage)
        }
        guard result.tokiPonaConfidence == 0 || result.language != .english else { return nil }
        var language = result.language
        if language == .english, current.otherLanguage == .vietnamese { language = .vietnamese }
        let wanted = TranslationDirection.toTokiPona(from: language)
        return wanted == current ? nil : wanted
    }
}

extension TranslationDirection {
    /// The direction for `text` when none was chosen: Toki Pona into `otherLanguage`, or the
    /// language found into Toki Pona.
    public static func detected(for text: String, otherLanguage: Language = .english) -> TranslationDirection {
        let result = TokiPonaDetector.detect(text)
        return result.isTokiPona ? .fromTokiPona(to: otherLanguage) : .toTokiPona(from: result.language)
    }
}
