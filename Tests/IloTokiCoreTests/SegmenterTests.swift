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
        #expect(
            plan.assemble(["I eat.", "You sleep.", "A person comes.", "This is good."])
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

/// Where a sentence too long to translate at once is cut.
@Suite struct ClausesTests {
    @Test func commasSemicolonsColonsAndDashesBetweenSpacesEndClauses() {
        let sentence = "We came home, ate bread; then: sleep — and a well-known 3,5 km walk at 10:30 - done"
        let clauses = Clauses.split(sentence)
        #expect(
            clauses.map(\.text) == ["We came home,", "ate bread;", "then:", "sleep", "— and a well-known 3,5 km walk at 10:30", "- done"])
        #expect(clauses.map { $0.text + $0.spacing }.joined() == sentence)
    }

    @Test func fullWidthMarksNeedNoSpace() {
        #expect(Clauses.split("一，二；三").map(\.text) == ["一，", "二；", "三"])
    }

    @Test func aSentenceTooLongIsSplitAtItsClausesGroupedWhileTheyFit() {
        let sentence = (1...30).map { "clause \($0)" }.joined(separator: ", ") + "."
        let plan = TranslationPlan(sentence, bySentence: true) { $0.count <= 60 }
        #expect(plan.overlong == nil)
        #expect(plan.chunks.count > 1 && plan.chunks.allSatisfy { $0.count <= 60 })
        #expect(plan.chunks.allSatisfy { $0.hasSuffix(",") || $0.hasSuffix(".") }, "cut only after a comma")
        #expect(plan.assemble(plan.chunks) == sentence)
    }

    @Test func aSentenceWithNowhereToSplitItIsNamedWithItsLine() {
        let unbroken = (1...30).map { "word\($0)" }.joined(separator: " ")
        let plan = TranslationPlan("\nmi moku.\n\nsina lape. \(unbroken).", bySentence: true) { $0.count <= 60 }
        #expect(plan.overlong == TranslationPlan.Overlong(line: 2, sentence: unbroken + "."))
        #expect(plan.chunks.joined(separator: " ").contains("word30"), "the plan still covers the text")
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

/// A paragraph's sentences translated together: each streams into its place at once, the
/// append-only additions stay in reading order, and the final text is the sentences in order
/// with the paragraph's own spacing.
@Suite struct ParagraphTranslationTests {
    static func script(_ source: String) -> [String] {
        switch source {
        case "mi moku.": [" I", " eat."]
        case "sina lape!": [" You", " sleep", "!"]
        case "ona li kama.": [" It", " comes", " here", "."]
        default: [" ?"]
        }
    }

    @Test func everySentenceFillsInAtOnceAndTheAdditionsStayInOrder() async throws {
        let engine = ScriptedEngine(parallelCompletions: 8, script: Self.script)
        let translator = Translator(engine: engine, format: .sourceTarget)
        var texts: [String] = []
        var additions = ""
        var final: TranslationProgress?
        for try await progress in translator.translate("mi moku. sina lape!  ona li kama.", direction: .tokiPonaToEnglish) {
            texts.append(progress.text)
            additions += progress.addition
            final = progress
        }
        #expect(final?.isFinal == true)
        #expect(final?.text == "I eat. You sleep!  It comes here.")
        #expect(additions == final?.text)
        // The second and third sentences show before the first is finished.
        #expect(Array(texts.prefix(3)) == ["I", "I You", "I You  It"])
        #expect(engine.prompts.map(\.sourceText) == ["mi moku.", "sina lape!", "ona li kama."])
    }

    @Test func wholeLinesAreOnePromptEach() async throws {
        let engine = ScriptedEngine(parallelCompletions: 8) { _ in [" All", " of", " it."] }
        let translator = Translator(engine: engine, format: .sourceTarget, bySentence: false)
        var final = ""
        for try await progress in translator.translate("mi moku. sina lape!\nona li kama.", direction: .tokiPonaToEnglish) {
            final = progress.text
        }
        #expect(engine.prompts.map(\.sourceText) == ["mi moku. sina lape!", "ona li kama."])
        #expect(final == "All of it.\nAll of it.")
    }

    @Test func severalTextsTogetherEachEndOnItsOwn() async throws {
        let engine = ScriptedEngine(parallelCompletions: 4, script: Self.script)
        let translator = Translator(engine: engine, format: .sourceTarget)
        var finals: [Int: String] = [:]
        var failures: [Int] = []
        let texts = [
            TextToTranslate("mi moku.", direction: .tokiPonaToEnglish), TextToTranslate("   ", direction: .tokiPonaToEnglish),
            TextToTranslate("sina lape! ona li kama.", direction: .tokiPonaToEnglish),
        ]
        for try await update in translator.translateAll(texts) {
            switch update {
            case .progress(let index, let progress): if progress.isFinal { finals[index] = progress.text }
            case .failed(let index, let error):
                #expect(error as? TranslationError == .emptyText)
                failures.append(index)
            }
        }
        #expect(finals == [0: "I eat.", 2: "You sleep! It comes here."])
        #expect(failures == [1])
    }

    @Test func eachSentencesOutputIsBoundedByItsLength() {
        let translator = Translator(engine: ScriptedEngine { _ in [] }, format: .sourceTarget, maxTokens: 512)
        #expect(translator.tokenLimit(forSourceTokens: 5) == 52)
        #expect(translator.tokenLimit(forSourceTokens: 200) == 512)
    }
}

/// Text of any length: only a sentence with nowhere to split it is refused.
@Suite struct LongTextTests {
    // The scripted engine counts a token for every four characters, and its context holds 2048.
    let translator = Translator(engine: ScriptedEngine { [$0.components(separatedBy: "\n").dropLast().last ?? ""] }, format: .sourceTarget)

    @Test func aTextLongerThanTheContextIsPlannedSentenceBySentence() throws {
        let text = (1...400).map { "Sentence number \($0) is here." }.joined(separator: " ")
        #expect(text.count / 4 > 2048)
        let plan = try translator.plan(text, direction: .englishToTokiPona)
        #expect(plan.chunks.count == 400)
    }

    @Test func aSentenceWithNowhereToSplitItIsRefusedByItsLineAndFirstWords() throws {
        let unbroken = (1...400).map { "word\($0)" }.joined(separator: " ")
        #expect(
            throws: TranslationError.sentenceTooLong(
                line: 3, beginning: "word1 word2 word3 word4 word5 word6…", tokens: unbroken.count / 4, limit: 256)
        ) {
            try translator.plan("mi moku.\nsina lape.\nni li pona. \(unbroken)", direction: .tokiPonaToEnglish)
        }
        let message = TranslationError.sentenceTooLong(line: nil, beginning: "word1…", tokens: 900, limit: 256).errorDescription ?? ""
        #expect(
            message
                == "The sentence that begins \"word1…\" is too long to translate: it has 900 tokens, the model translates at most 256 at once, and it has no comma, semicolon, colon or dash where it could be split. Split it into shorter sentences."
        )
    }
}
