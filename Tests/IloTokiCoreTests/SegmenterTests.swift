import IloTokiCore
import Testing

@Suite struct SegmenterTests {
    @Test func lineBreaksAndBlankLinesSurviveARoundTrip() {
        let text = "mi moku.\nsina lape.\n\n\njan li kama.\nni li pona."
        let plan = TranslationPlan(text)
        #expect(plan.chunks == ["mi moku.", "sina lape.", "jan li kama.", "ni li pona."])
        #expect(plan.lines.count == 6)
        // Translating each chunk to itself gives the text back.
        #expect(plan.assemble(plan.chunks) == text)
        #expect(plan.assemble(["I eat.", "You sleep.", "A person comes.", "This is good."])
            == "I eat.\nYou sleep.\n\n\nA person comes.\nThis is good.")
    }

    @Test func windowsLineEndsAndSurroundingBlankLines() {
        let plan = TranslationPlan("\n\r\nmi moku\r\n\r\nsina lape\r\n\n")
        #expect(plan.chunks == ["mi moku", "sina lape"])
        #expect(plan.assemble(["a", "b"]) == "a\n\nb")
    }

    @Test func aStreamingTranslationAssemblesWhatThereIs() {
        let plan = TranslationPlan("one\n\ntwo\nthree")
        #expect(plan.assemble([]) == "")
        #expect(plan.assemble(["1"]) == "1")
        #expect(plan.assemble(["1", "2"]) == "1\n\n2")
    }

    @Test func anOverlongLineIsSplitAtSentenceEnds() {
        let line = "mi moku e kili. sina lape lon tomo! jan li kama tan ma ante? ni li pona."
        let plan = TranslationPlan(line) { $0.count <= 40 }
        #expect(plan.chunks == ["mi moku e kili. sina lape lon tomo!", "jan li kama tan ma ante? ni li pona."])
        #expect(plan.lines.count == 1)
        #expect(plan.assemble(plan.chunks) == line)
    }

    @Test func sentenceEndsKeepTheirClosingQuotes() {
        let plan = TranslationPlan("«Привет.» Он ушёл.") { $0.count <= 10 }
        #expect(plan.chunks == ["«Привет.»", "Он ушёл."])
    }

    @Test func aSentenceTooLongOnItsOwnIsSplitBetweenWordsAndNothingIsLost() {
        let sentence = (1...30).map { "word\($0)" }.joined(separator: " ")
        let plan = TranslationPlan(sentence) { $0.count <= 50 }
        #expect(plan.chunks.allSatisfy { $0.count <= 50 })
        #expect(plan.chunks.joined(separator: " ") == sentence)
    }

    @Test func aWordLongerThanAnyChunkIsCutButKept() {
        let word = String(repeating: "a", count: 95)
        let plan = TranslationPlan("x \(word) y") { $0.count <= 20 }
        #expect(plan.chunks.allSatisfy { $0.count <= 20 })
        #expect(plan.chunks.joined().replacingOccurrences(of: " ", with: "") == "x\(word)y")
    }

    @Test func emptyTextHasNothingToTranslate() {
        #expect(TranslationPlan("").chunks.isEmpty)
        #expect(TranslationPlan("  \n \n").lines.isEmpty)
    }
}

@Suite struct SegmenterMarksTests {
    @Test func aCombiningMarkAfterASpaceSurvivesSplitting() {
        // " \u{065A}" is one Character whose first scalar is a space.
        let text = "Dr. Smith came home. \u{065A}Then he slept for a very long time indeed"
        let plan = TranslationPlan(text) { $0.utf8.count <= 24 }
        #expect(plan.chunks.joined(separator: " ").unicodeScalars.contains("\u{065A}"))
        #expect(plan.chunks.count > 1)
    }
}

/// What a translation streams: the additions, appended in order, always make the text.
@Suite struct TranslationStreamTests {
    @Test func aPieceThatBeginsWithACombiningMarkIsOnlyItsOwnAddition() async throws {
        // U+0361 joins the "n" before it into one Character: "…n" is then no longer a
        // Character prefix of the text, though its bytes still are.
        let engine = ScriptedEngine { _ in [" invarication", "\u{0361}", " Aur", "\u{0301}e"] }
        var additions = ""
        var last = ""
        for try await progress in Translator(engine: engine, format: .sourceTarget).translate("hello", direction: .englishToTokiPona) {
            additions += progress.addition
            last = progress.text
        }
        #expect(last == "invarication\u{0361} Aur\u{0301}e")
        #expect(additions == last)
    }
}
