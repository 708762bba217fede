/// Code points, as sorted ranges: what a language is written in.
public struct CharacterClass: Sendable, Equatable {
    /// The ranges, sorted, neither overlapping nor touching.
    public let ranges: [ClosedRange<UInt32>]

    /// The code points of `ranges`, in any order, overlapping or not.
    public init(_ ranges: [ClosedRange<UInt32>]) {
        var merged: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, UInt64(range.lowerBound) <= UInt64(last.upperBound) + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    /// The code points of `characters` (each its own range).
    init(characters: String) {
        self.init(characters.unicodeScalars.map { $0.value...$0.value })
    }

    public func contains(_ scalar: Unicode.Scalar) -> Bool {
        // The first range that ends at or after the scalar.
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar.value { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].lowerBound <= scalar.value
    }

    /// Whether every character of `text` is in the class.
    func containsAll(of text: String) -> Bool {
        text.unicodeScalars.allSatisfy(contains)
    }

    public static func + (left: CharacterClass, right: CharacterClass) -> CharacterClass {
        CharacterClass(left.ranges + right.ranges)
    }
}

// The one table of which characters the languages are written in, and what marks a text as
// written in each. The detector (LanguageDetector.swift) reads it to tell the languages apart, and the engine hands it to the inference library, which
// keeps the output head's vocabulary rows a translation into the language can write (the
// trimmed head, docs/benchmarks.md): the core itself knows no languages.
extension CharacterClass {
    /// What every language writes: whitespace, digits, ASCII punctuation and symbols, and the
    /// typographic punctuation of the four languages (dashes, quotes, the ellipsis,
    /// guillemets, the middle dot, §, °, №).
    public static let shared = CharacterClass([
        0x09...0x0A, 0x0D...0x0D, 0x20...0x40, 0x5B...0x60, 0x7B...0x7E,
        0xA0...0xA0, 0xA7...0xA7, 0xAB...0xAB, 0xB0...0xB0, 0xB7...0xB7, 0xBB...0xBB,
        0x2010...0x205E,  // General Punctuation
        0x2116...0x2116,
    ])

    /// The ASCII letters.
    public static let asciiLetters = CharacterClass([0x41...0x5A, 0x61...0x7A])

    /// Latin-1's letters (À to ÿ without × and ÷).
    public static let latin1Letters = CharacterClass([0xC0...0xD6, 0xD8...0xF6, 0xF8...0xFF])

    /// The Cyrillic block.
    public static let cyrillic = CharacterClass([0x0400...0x04FF])

    /// The combining diacritical marks (Vietnamese typed with separate tone marks).
    public static let combiningMarks = CharacterClass([0x0300...0x036F])

    /// Latin Extended-A and -B (ă đ ơ ư among them).
    public static let latinExtended = CharacterClass([0x0100...0x024F])

    /// The precomposed Vietnamese letters with tone marks, in Latin Extended Additional.
    public static let vietnameseToneLetters = CharacterClass([0x1EA0...0x1EF9])

    /// The letters only Vietnamese writes among the languages, besides the tone letters:
    /// ă â đ ê ô ơ ư and the vowels with Vietnamese's grave, acute and tilde (any case).
    public static let vietnameseOwnLetters = CharacterClass(
        characters: "ăâđêôơưĂÂĐÊÔƠƯàáãèéìíĩòóõùúũýÀÁÃÈÉÌÍĨÒÓÕÙÚŨÝ"
    )

    /// All of Latin Extended Additional.
    public static let latinExtendedAdditional = CharacterClass([0x1E00...0x1EFF])

    /// Every Latin letter the detector counts as Latin: the ASCII letters, Latin-1's, Latin
    /// Extended-A, -B and Additional.
    public static let latinLetters = asciiLetters + latin1Letters + latinExtended + latinExtendedAdditional

    /// The four languages' output characters together: what the trimmed head widens to when
    /// a translation copies a name from the source or a model answers in another language.
    public static let allLanguages = Language.allCases.map(\.outputCharacters).reduce(CharacterClass([]), +)
}

extension Language {
    /// The letters the language is written in.
    public var letters: CharacterClass {
        switch self {
        case .tokiPona: CharacterClass(characters: "aeijklmnopstuwAEIJKLMNOPSTUW")
        case .english: .asciiLetters + .latin1Letters
        case .russian: .cyrillic
        case .vietnamese: .asciiLetters + .latin1Letters + .latinExtended + .combiningMarks + .vietnameseToneLetters
        }
    }

    /// What marks a text as written in the language, among the languages: how the detector
    /// tells it apart (LanguageDetector.swift). A new language's row must say it.
    public var mark: LanguageMark {
        switch self {
        case .tokiPona: .words
        case .english: .latinUnmarked
        case .russian: .script(.cyrillic)
        case .vietnamese: .letters(.vietnameseOwnLetters + .vietnameseToneLetters)
        }
    }

    /// Every character a translation into the language writes: its letters and the shared
    /// punctuation, digits and whitespace.
    public var outputCharacters: CharacterClass { .shared + letters }
}

/// What tells a text in one language from a text in the others.
public enum LanguageMark: Sendable, Equatable {
    /// Its words: a small closed vocabulary and a strict syllable shape (Toki Pona), weighed
    /// word by word against common words of the others.
    case words
    /// A script of its own: the text is in the language when at least half its letters are.
    case script(CharacterClass)
    /// Letters of its own within a script it shares: one of them is enough, and the language
    /// with the most of them wins.
    case letters(CharacterClass)
    /// Nothing of its own: the language of Latin text that nothing else marks.
    case latinUnmarked
}
