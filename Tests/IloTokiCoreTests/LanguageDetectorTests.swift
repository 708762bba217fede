import Testing

@testable import IloTokiCore

@Suite struct LanguageDetectorTests {
    static let tokiPona = [
        "jan li moku e kili",
        "mi olin e sina",
        "toki!",
        "sina pona tawa mi",
        "mi wile moku.",
        "jan Sonja li mama pi toki pona.",
        "ma Kanata li suli mute.",
        "tenpo pini la mi lape lon tomo mi.",
        "o kama!",
        "mi mute li kama sona e toki pona.",
        "sina seme?",
        "ni li pona ala pona?",
        "soweli lili li moku e telo.",
        "jan Lisa li pana e lipu tawa jan Mewika.",
        "mi pilin pona, taso mi wile lape.",
        "kili ni li suwi.",
        "toki, jan Kasi o!",
        "lon ma Italija la jan li toki e toki Italija.",
        "waso li tawa lon kon.",
        "mi jo e kijetesantakalu.",
        "pona",
        "tomo tawa mi li pakala",
        "\"sina wile e seme?\" jan li toki.",
        "mi kin",
    ]

    static let english = [
        "I love you",
        "The person eats fruit.",
        "Hello, how are you?",
        "a man",
        "Open the door, please.",
        "Mama is a nurse.",
        "I am a man",
        "What time is it?",
        "Toki Pona is a small language.",
    ]

    static let russian = [
        "Я тебя люблю",
        "Человек ест фрукты.",
        "Привет, как дела?",
        "Мама мыла раму.",
        "Где здесь метро?",
        "да",
        "Мне нравится toki pona.",
    ]

    static let vietnamese = [
        "Tôi yêu bạn",
        "Người ăn trái cây.",
        "Xin chào, bạn khỏe không?",
        "Cảm ơn",
        "Hôm nay trời đẹp quá.",
        "Tôi là sinh viên.",
        "Bạn tên là gì?",
    ]

    @Test(arguments: tokiPona)
    func tokiPonaSentencesAreTokiPona(sentence: String) {
        let result = LanguageDetector.detect(sentence)
        #expect(result.isTokiPona, "\(sentence): \(result.tokiPonaConfidence)")
        #expect(result.tokiPonaConfidence >= LanguageDetector.threshold)
    }

    @Test(arguments: english)
    func englishIsEnglish(sentence: String) {
        let result = LanguageDetector.detect(sentence)
        #expect(result.language == .english, "\(sentence): \(result.tokiPonaConfidence)")
    }

    @Test(arguments: russian)
    func russianIsRussian(sentence: String) {
        #expect(LanguageDetector.detect(sentence).language == .russian, "\(sentence)")
    }

    @Test(arguments: vietnamese)
    func vietnameseIsVietnamese(sentence: String) {
        #expect(LanguageDetector.detect(sentence).language == .vietnamese, "\(sentence)")
    }

    @Test func vietnameseTypedWithCombiningMarksIsVietnamese() {
        #expect(LanguageDetector.detect("To\u{0302}i yeu ba\u{0323}n").language == .vietnamese)
    }

    @Test func confidenceIsGradedNotJustYesOrNo() {
        let clear = LanguageDetector.tokiPonaConfidence(of: "jan li moku e kili")
        let withForeignName = LanguageDetector.tokiPonaConfidence(of: "jan Peter li moku e kili")
        let english = LanguageDetector.tokiPonaConfidence(of: "I love you")
        #expect(clear > 0.8)
        #expect(LanguageDetector.tokiPonaConfidence(of: "I love toki pona") < LanguageDetector.threshold)
        #expect(withForeignName < clear && withForeignName >= LanguageDetector.threshold)
        #expect(english == 0)
    }

    @Test(arguments: ["jan", "sona", "Sonja", "kijetesantakalu", "Mewika", "Kanata", "anpa", "ijo"])
    func tokiPonaSyllables(word: String) {
        #expect(LanguageDetector.hasTokiPonaShape(word.lowercased()))
    }

    @Test(arguments: ["love", "ji", "tiki", "wuwa", "nna", "anm", "kr", "the", "am"])
    func notTokiPonaSyllables(word: String) {
        #expect(!LanguageDetector.hasTokiPonaShape(word))
    }

    @Test func nothingToJudge() {
        #expect(LanguageDetector.tokiPonaConfidence(of: "") == 0)
        #expect(LanguageDetector.tokiPonaConfidence(of: "123 !!!") == 0)
    }
}

/// The direction chosen for a text, given the direction used last: 60-odd sentences across
/// the four languages, and the traps.
@Suite struct DirectionTableTests {
    static let lastEnglish = TranslationDirection.tokiPonaToEnglish
    static let table: [(text: String, last: TranslationDirection, expected: TranslationDirection)] = [
        // Toki Pona goes into the last other language.
        ("jan li moku e kili", lastEnglish, .tokiPonaToEnglish),
        ("mi olin e sina", .englishToTokiPona, .tokiPonaToEnglish),
        ("sina pona tawa mi", .fromTokiPona(to: .russian), .fromTokiPona(to: .russian)),
        ("mi wile moku.", .toTokiPona(from: .vietnamese), .fromTokiPona(to: .vietnamese)),
        ("jan Sonja li mama pi toki pona.", lastEnglish, .tokiPonaToEnglish),
        ("ma Kanata li suli mute.", lastEnglish, .tokiPonaToEnglish),
        ("tenpo pini la mi lape lon tomo mi.", lastEnglish, .tokiPonaToEnglish),
        ("o kama!", lastEnglish, .tokiPonaToEnglish),
        ("mi mute li kama sona e toki pona.", lastEnglish, .tokiPonaToEnglish),
        ("sina seme?", lastEnglish, .tokiPonaToEnglish),
        ("ni li pona ala pona?", lastEnglish, .tokiPonaToEnglish),
        ("soweli lili li moku e telo.", lastEnglish, .tokiPonaToEnglish),
        ("jan Lisa li pana e lipu tawa jan Mewika.", lastEnglish, .tokiPonaToEnglish),
        ("mi pilin pona, taso mi wile lape.", lastEnglish, .tokiPonaToEnglish),
        ("toki, jan Kasi o!", lastEnglish, .tokiPonaToEnglish),
        ("waso li tawa lon kon.", lastEnglish, .tokiPonaToEnglish),
        ("mi jo e kijetesantakalu.", lastEnglish, .tokiPonaToEnglish),
        ("tomo tawa mi li pakala", lastEnglish, .tokiPonaToEnglish),
        ("\"sina wile e seme?\" jan li toki.", lastEnglish, .tokiPonaToEnglish),
        ("jan Peter li moku e kili", lastEnglish, .tokiPonaToEnglish),
        ("pona", lastEnglish, .tokiPonaToEnglish),
        // English goes into Toki Pona, also when it quotes Toki Pona.
        ("I love you", lastEnglish, .englishToTokiPona),
        ("The person eats fruit.", lastEnglish, .englishToTokiPona),
        ("Hello, how are you?", .fromTokiPona(to: .russian), .englishToTokiPona),
        ("a man", lastEnglish, .englishToTokiPona),
        ("Open the door, please.", lastEnglish, .englishToTokiPona),
        ("Mama is a nurse.", lastEnglish, .englishToTokiPona),
        ("I am a man", lastEnglish, .englishToTokiPona),
        ("What time is it?", lastEnglish, .englishToTokiPona),
        ("Toki Pona is a small language.", lastEnglish, .englishToTokiPona),
        ("I love toki pona", lastEnglish, .englishToTokiPona),
        ("What does mi moku mean?", lastEnglish, .englishToTokiPona),
        ("How do you say jan pona?", lastEnglish, .englishToTokiPona),
        ("My friend speaks toki pona", lastEnglish, .englishToTokiPona),
        ("toki pona is fun", lastEnglish, .englishToTokiPona),
        ("The word pona means good", lastEnglish, .englishToTokiPona),
        ("I love you", .toTokiPona(from: .vietnamese), .englishToTokiPona),
        // Russian.
        ("Я тебя люблю", lastEnglish, .toTokiPona(from: .russian)),
        ("Человек ест фрукты.", lastEnglish, .toTokiPona(from: .russian)),
        ("Привет, как дела?", .fromTokiPona(to: .vietnamese), .toTokiPona(from: .russian)),
        ("Мама мыла раму.", lastEnglish, .toTokiPona(from: .russian)),
        ("Где здесь метро?", lastEnglish, .toTokiPona(from: .russian)),
        ("да", lastEnglish, .toTokiPona(from: .russian)),
        ("Мне нравится toki pona.", lastEnglish, .toTokiPona(from: .russian)),
        ("Что значит mi moku?", lastEnglish, .toTokiPona(from: .russian)),
        // Vietnamese.
        ("Tôi yêu bạn", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("Người ăn trái cây.", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("Xin chào, bạn khỏe không?", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("Cảm ơn", .fromTokiPona(to: .russian), .toTokiPona(from: .vietnamese)),
        ("Hôm nay trời đẹp quá.", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("Tôi là sinh viên.", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("Bạn tên là gì?", lastEnglish, .toTokiPona(from: .vietnamese)),
        ("To\u{0302}i yeu ba\u{0323}n", lastEnglish, .toTokiPona(from: .vietnamese)),
        // Vietnamese without its marks: a known limit (English), unless Vietnamese was last.
        ("Toi yeu ban", lastEnglish, .englishToTokiPona),
        ("Toi yeu ban", .toTokiPona(from: .vietnamese), .toTokiPona(from: .vietnamese)),
        ("Toi yeu ban", .fromTokiPona(to: .vietnamese), .toTokiPona(from: .vietnamese)),
        // Words of both languages follow the last direction.
        ("a", lastEnglish, lastEnglish),
        ("a", .englishToTokiPona, .englishToTokiPona),
        ("e", .fromTokiPona(to: .russian), .fromTokiPona(to: .russian)),
        ("o", .toTokiPona(from: .vietnamese), .toTokiPona(from: .vietnamese)),
        ("mu", .englishToTokiPona, .englishToTokiPona),
        ("mama", lastEnglish, lastEnglish),
        ("mama", .englishToTokiPona, .englishToTokiPona),
        ("open", .fromTokiPona(to: .russian), .fromTokiPona(to: .russian)),
        ("Open!", .englishToTokiPona, .englishToTokiPona),
        ("123", .toTokiPona(from: .russian), .toTokiPona(from: .russian)),
    ]

    @Test func everySentenceGetsItsDirection() throws {
        #expect(Self.table.count >= 60)
        for row in Self.table {
            let direction = try LanguageDetector.direction(for: row.text, last: row.last)
            #expect(direction == row.expected, "\(row.text) after \(row.last): \(direction)")
        }
    }

    @Test(arguments: [("こんにちは", "Japanese"), ("你好", "Chinese"), ("Γειά σου", "Greek"), ("שלום", "Hebrew"), ("مرحبا", "Arabic")])
    func textInAnotherScriptIsNamedNotGuessed(text: String, script: String) {
        #expect(throws: DirectionError.unsupportedScript(script)) { try LanguageDetector.direction(for: text, last: .tokiPonaToEnglish) }
        #expect(DirectionError.unsupportedScript(script).localizedDescription.contains(script))
    }

    @Test func aForeignWordInLatinTextIsStillTranslated() throws {
        #expect(try LanguageDetector.direction(for: "I love 寿司", last: .tokiPonaToEnglish) == .englishToTokiPona)
    }

    /// The detector learns each language's mark from the languages' table, not from counters
    /// of its own: text made of a language's marking letters is that language, and a word
    /// of them in otherwise Latin text marks a language whose mark is its letters.
    @Test(arguments: Language.allCases)
    func eachLanguagesMarkInTheTableTellsItsText(language: Language) throws {
        switch language.mark {
        case .words:
            #expect(LanguageDetector.detect("mi olin e sina").language == language)
        case .latinUnmarked:
            #expect(LanguageDetector.detect("Where is the station").language == language)
        case .script(let letters), .letters(let letters):
            let sample = try #require(Self.letters(of: letters, count: 12))
            #expect(LanguageDetector.detect(sample).language == language, "\(language): \(sample)")
            #expect(LanguageDetector.verdict(for: sample) == .language(language))
            if case .letters = language.mark {
                let one = try #require(sample.unicodeScalars.first)
                #expect(LanguageDetector.detect("the cat sat on \(one)").language == language)
            }
        }
    }

    @Test func everyLanguageButOneIsMarkedByItsLetters() {
        let unmarked = Language.allCases.filter { $0.mark == .latinUnmarked }
        #expect(unmarked.count == 1, "the Latin text nothing marks needs exactly one language")
        #expect(Language.allCases.filter { $0.mark == .words } == [.tokiPona])
    }

    /// Lowercase letters of `letters`, spread over its ranges, as words of four.
    static func letters(of letters: CharacterClass, count: Int) -> String? {
        let scalars = letters.ranges.flatMap { $0 }.compactMap(Unicode.Scalar.init)
            .filter { $0.properties.isLowercase }
        guard !scalars.isEmpty else { return nil }
        let step = max(1, scalars.count / count)
        let picked = stride(from: 0, to: scalars.count, by: step).prefix(count).map { Character(scalars[$0]) }
        return stride(from: 0, to: picked.count, by: 4).map { String(picked[$0..<min($0 + 4, picked.count)]) }.joined(separator: " ")
    }
}
