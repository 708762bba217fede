import Foundation
import IloTokiCore
import Testing

/// The prompts are pinned byte for byte: a model only answers to the format it was trained
/// on, and the wrong one fails silently (fluent text in the wrong language).
@Suite struct PromptFormatTests {
    @Test(arguments: [
        (
            TranslationDirection.fromTokiPona(to: .english), "jan li moku e kili",
            "Translate this from Toki Pona to English:\nToki Pona: jan li moku e kili\nEnglish:"
        ),
        (
            TranslationDirection.fromTokiPona(to: .russian), "jan li moku e kili",
            "Translate this from Toki Pona to Russian:\nToki Pona: jan li moku e kili\nRussian:"
        ),
        (
            TranslationDirection.fromTokiPona(to: .vietnamese), "jan li moku e kili",
            "Translate this from Toki Pona to Vietnamese:\nToki Pona: jan li moku e kili\nVietnamese:"
        ),
        (
            TranslationDirection.toTokiPona(from: .english), "The person eats fruit.",
            "Translate this from English to Toki Pona:\nEnglish: The person eats fruit.\nToki Pona:"
        ),
        (
            TranslationDirection.toTokiPona(from: .russian), "Человек ест фрукты.",
            "Translate this from Russian to Toki Pona:\nRussian: Человек ест фрукты.\nToki Pona:"
        ),
        (
            TranslationDirection.toTokiPona(from: .vietnamese), "Người ăn trái cây.",
            "Translate this from Vietnamese to Toki Pona:\nVietnamese: Người ăn trái cây.\nToki Pona:"
        ),
    ])
    func sourceTargetPromptForEveryDirection(direction: TranslationDirection, text: String, expected: String) {
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: text, direction: direction)
        #expect(Array(prompt.prompt.utf8) == Array(expected.utf8))
    }

    @Test(arguments: [
        (
            TranslationDirection.fromTokiPona(to: .english), "jan li moku e kili",
            "Translate Toki Pona to English.\nQuery: jan li moku e kili\nAnswer:"
        ),
        (
            TranslationDirection.toTokiPona(from: .russian), "Я тебя люблю",
            "Translate Russian to Toki Pona.\nQuery: Я тебя люблю\nAnswer:"
        ),
        (
            TranslationDirection.toTokiPona(from: .vietnamese), "Tôi yêu bạn",
            "Translate Vietnamese to Toki Pona.\nQuery: Tôi yêu bạn\nAnswer:"
        ),
    ])
    func queryAnswerPrompt(direction: TranslationDirection, text: String, expected: String) {
        let prompt = PromptFormat.queryAnswer.translationPrompt(for: text, direction: direction)
        #expect(Array(prompt.prompt.utf8) == Array(expected.utf8))
    }

    @Test func sourceTargetEndsWhenTheModelStartsANewLabelledLine() {
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: "mi moku", direction: .fromTokiPona(to: .russian))
        #expect(prompt.stopSequences == ["\nToki Pona:", "\nRussian:"])
        #expect(prompt.maxLines == 1)
    }

    @Test func queryAnswerEndsAtANewQueryOrAnswerLine() {
        let prompt = PromptFormat.queryAnswer.translationPrompt(for: "mi moku", direction: .fromTokiPona(to: .english))
        #expect(prompt.stopSequences == ["\nQuery:", "\nAnswer:"])
    }

    @Test func aFormatIsFoundByTheNameAPersonSeesOrTypes() {
        for name in ["sourceTarget", "source/target", "source-target", "Source_Target", "SOURCE TARGET"] {
            #expect(PromptFormat(name: name) == .sourceTarget, "\(name)")
        }
        for name in ["queryAnswer", "query/answer", "query-answer"] { #expect(PromptFormat(name: name) == .queryAnswer, "\(name)") }
        for format in PromptFormat.allCases { #expect(PromptFormat(name: format.displayName) == format) }
        for name in ["", "source", "targetSource", "chat"] { #expect(PromptFormat(name: name) == nil, "\(name)") }
    }

    @Test func lineLimitFollowsTheInput() {
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: "mi moku\nsina lape", direction: .tokiPonaToEnglish)
        #expect(prompt.maxLines == 2)
    }

    @Test func inputIsTrimmedAndNFCNormalised() {
        // "Tiếng Việt" typed with combining marks: e + circumflex + acute, e + dot below + circumflex.
        let decomposed = "  Tie\u{0302}\u{0301}ng Vie\u{0323}\u{0302}t \n"
        let prompt = PromptFormat.sourceTarget.translationPrompt(for: decomposed, direction: .toTokiPona(from: .vietnamese))
        #expect(prompt.sourceText == "Tiếng Việt")
        #expect(prompt.sourceText.unicodeScalars.count == 10)
        #expect(prompt.prompt == "Translate this from Vietnamese to Toki Pona:\nVietnamese: Tiếng Việt\nToki Pona:")
    }
}

@Suite struct TranslationOutputTests {
    @Test func leadingSpaceIsStrippedFromTheFirstPieceOnly() {
        var output = TranslationOutput()
        #expect(output.append(" The") == "The")
        #expect(output.append(" person") == " person")
        #expect(output.append(" eats") == " eats")
        #expect(output.text == "The person eats")
    }

    @Test func aFirstPieceThatIsOnlyASpace() {
        var output = TranslationOutput()
        #expect(output.append(" ") == "")
        #expect(output.append("I") == "I")
        #expect(output.append(" love") == " love")
        #expect(output.text == "I love")
    }

    @Test func textWithoutALeadingSpaceIsKept() {
        var output = TranslationOutput()
        output.append("Я")
        output.append(" тебя")
        #expect(output.text == "Я тебя")
    }
}

@Suite struct LanguageTests {
    @Test func namesAndCodes() {
        #expect(Language.allCases.map(\.code) == ["tok", "en", "ru", "vi"])
        #expect(Language.allCases.map(\.promptName) == ["Toki Pona", "English", "Russian", "Vietnamese"])
        #expect(Language.allCases.map(\.endonym) == ["toki pona", "English", "Русский", "Tiếng Việt"])
        #expect(Language(code: "RU") == .russian)
        #expect(Language(code: "de") == nil)
    }

    @Test func tokiPonaIsAlwaysOnExactlyOneSide() {
        #expect(TranslationDirection.all.count == 6)
        #expect(TranslationDirection.all.allSatisfy { ($0.source == .tokiPona) != ($0.target == .tokiPona) })
        #expect(TranslationDirection(from: .english, to: .russian) == nil)
        #expect(TranslationDirection(from: .tokiPona, to: .tokiPona) == nil)
    }

    @Test func swappingTurnsTheDirectionRound() {
        let direction = TranslationDirection.fromTokiPona(to: .vietnamese)
        #expect(direction.swapped == .toTokiPona(from: .vietnamese))
        #expect(direction.swapped.swapped == direction)
        #expect(direction.otherLanguage == .vietnamese)
        #expect(direction.with(otherLanguage: .russian) == .fromTokiPona(to: .russian))
        #expect(direction.swapped.with(otherLanguage: .english) == .englishToTokiPona)
    }

    @Test func directionsDecodeOnlyWhenValid() throws {
        let good = try JSONDecoder().decode(TranslationDirection.self, from: Data(#"{"source":"ru","target":"tok"}"#.utf8))
        #expect(good == .toTokiPona(from: .russian))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TranslationDirection.self, from: Data(#"{"source":"ru","target":"en"}"#.utf8))
        }
    }
}
