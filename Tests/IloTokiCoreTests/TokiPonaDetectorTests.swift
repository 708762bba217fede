import IloTokiCore
import Testing

@Suite struct TokiPonaDetectorTests {
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
        let result = TokiPonaDetector.detect(sentence)
        #expect(result.isTokiPona, "\(sentence): \(result.tokiPonaConfidence)")
        #expect(result.tokiPonaConfidence >= TokiPonaDetector.threshold)
    }

    @Test(arguments: english)
    func englishIsEnglish(sentence: String) {
        let result = TokiPonaDetector.detect(sentence)
        #expect(result.language == .english, "\(sentence): \(result.tokiPonaConfidence)")
    }

    @Test(arguments: russian)
    func russianIsRussian(sentence: String) {
        #expect(TokiPonaDetector.detect(sentence).language == .russian, "\(sentence)")
    }

    @Test(arguments: vietnamese)
    func vietnameseIsVietnamese(sentence: String) {
        #expect(TokiPonaDetector.detect(sentence).language == .vietnamese, "\(sentence)")
    }

    @Test func vietnameseTypedWithCombiningMarksIsVietnamese() {
        #expect(TokiPonaDetector.detect("To\u{0302}i yeu ba\u{0323}n").language == .vietnamese)
    }

    @Test func confidenceIsGradedNotJustYesOrNo() {
        let clear = TokiPonaDetector.tokiPonaConfidence(of: "jan li moku e kili")
        let withForeignName = TokiPonaDetector.tokiPonaConfidence(of: "jan Peter li moku e kili")
        let english = TokiPonaDetector.tokiPonaConfidence(of: "I love you")
        #expect(clear > 0.8)
        #expect(TokiPonaDetector.tokiPonaConfidence(of: "mi olin e sina") > clear)
        #expect(withForeignName < clear && withForeignName >= TokiPonaDetector.threshold)
        #expect(english == 0)
    }

    @Test(arguments: ["jan", "sona", "Sonja", "kijetesantakalu", "Mewika", "Kanata", "anpa", "ijo"])
    func tokiPonaSyllables(word: String) {
        #expect(TokiPonaDetector.hasTokiPonaShape(word.lowercased()))
    }

    @Test(arguments: ["love", "ji", "tiki", "wuwa", "nna", "anm", "kr", "the", "am"])
    func notTokiPonaSyllables(word: String) {
        #expect(!TokiPonaDetector.hasTokiPonaShape(word))
    }

    @Test func nothingToJudge() {
        #expect(TokiPonaDetector.tokiPonaConfidence(of: "") == 0)
        #expect(TokiPonaDetector.tokiPonaConfidence(of: "123 !!!") == 0)
    }
}
