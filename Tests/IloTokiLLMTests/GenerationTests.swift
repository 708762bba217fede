import Foundation
import IloTokiLLM
import IloTokiTestSupport
import Testing

/// Generation on the real Gemma 3 270M file: greedy decoding, determinism, UTF-8, endings.
@Suite(.serialized, .exclusiveModelUse) struct GenerationTests {
    let engine: Engine

    init() throws {
        engine = try Engine(path: try TestModels.require(TestModels.gemma))
    }

    @Test(arguments: [Prompts.englishToTokiPona, Prompts.russianToTokiPona, Prompts.tokiPonaToEnglish])
    func argmaxChoosesExactlyWhatLlamaGreedySamplerChooses(prompt: String) async throws {
        let ours = try await engine.collect(prompt, GenerationOptions(maxTokens: 80, selection: .argmax))
        let llama = try await engine.collect(prompt, GenerationOptions(maxTokens: 80, selection: .llamaGreedy))
        // Long enough to mean something; the base model loops on these, and the runaway guard
        // ends a loop the same way for both, once it has seen at least 32 tokens (how soon
        // the model starts looping depends on the CPU's kernels).
        #expect(ours.stats.tokens.count > 32)
        #expect(ours.stats.finishReason == llama.stats.finishReason)
        #expect(ours.stats.tokens == llama.stats.tokens)
        #expect(ours.text == llama.text)
    }

    @Test func samePromptTwiceGivesIdenticalBytes() async throws {
        let first = try await engine.collect(Prompts.vietnameseToTokiPona, GenerationOptions(maxTokens: 48))
        let second = try await engine.collect(Prompts.vietnameseToTokiPona, GenerationOptions(maxTokens: 48))
        #expect(!first.text.isEmpty)
        #expect(Array(first.text.utf8) == Array(second.text.utf8))
        #expect(first.stats.tokens == second.stats.tokens)
    }

    @Test func promptAfterAnotherGivesTheSameAsAlone() async throws {
        let alone = try await Engine(path: engine.path).collect(Prompts.russianToTokiPona, GenerationOptions(maxTokens: 48))
        _ = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 48))
        let afterAnother = try await engine.collect(Prompts.russianToTokiPona, GenerationOptions(maxTokens: 48))
        #expect(afterAnother.stats.tokens == alone.stats.tokens)
        #expect(afterAnother.text == alone.text)
    }

    @Test(arguments: [Prompts.russianToTokiPona, Prompts.vietnameseToTokiPona])
    func streamedPiecesAreCompleteUTF8AndAddUpToTheDetokenizedText(prompt: String) async throws {
        let generation = try await engine.collect(prompt, GenerationOptions(maxTokens: 64))
        let whole = engine.detokenize(generation.stats.tokens)
        // A piece that split a character would have decoded to U+FFFD here, so the joined
        // pieces would no longer match the bytes of the whole text.
        #expect(Array(generation.text.utf8) == whole)
        #expect(String(validating: whole, as: UTF8.self) != nil)
        #expect(!generation.pieces.contains { $0.isEmpty || $0.contains("\u{FFFD}") })
        #expect(generation.text.contains(prompt.contains("Я") ? "люблю" : "yêu"))
    }

    @Test func lineLimitEndsAtTheFirstNewline() async throws {
        let unlimited = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 24))
        #expect(unlimited.text.contains("\n"))
        let oneLine = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 24, maxLines: 1))
        #expect(oneLine.stats.finishReason == .lineLimit)
        #expect(!oneLine.text.contains("\n"))
        #expect(oneLine.text == String(unlimited.text.prefix { $0 != "\n" }))
        #expect(oneLine.text == " I love you")
    }

    @Test func lineLimitOfTwoKeepsOneNewline() async throws {
        // What Gemma writes on its second line depends on the CPU's kernels; the limit must
        // keep exactly the first two lines of whatever the unlimited output is.
        let unlimited = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 24))
        let lines = unlimited.text.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count > 2)
        let twoLines = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 24, maxLines: 2))
        #expect(twoLines.stats.finishReason == .lineLimit)
        #expect(twoLines.text == lines.prefix(2).joined(separator: "\n"))
        #expect(twoLines.text.hasPrefix(" I love you\n"))
    }

    @Test func stopSequenceEndsTheOutputAndIsNotEmitted() async throws {
        let stopped = try await engine.collect(
            Prompts.russianToTokiPona, GenerationOptions(maxTokens: 40, stopSequences: ["\nToki Pona:", "\nEnglish:"]))
        #expect(stopped.stats.finishReason == .stopSequence)
        #expect(stopped.text == " Я тебя люблю")
    }

    @Test func stopSequenceInsideALine() async throws {
        let stopped = try await engine.collect(Prompts.russianToTokiPona, GenerationOptions(maxTokens: 40, stopSequences: ["люблю"]))
        #expect(stopped.stats.finishReason == .stopSequence)
        #expect(stopped.text == " Я тебя ")
    }

    @Test func aNewLabelledLineAtOnceGivesAnEmptyTranslation() async throws {
        let generation = try await engine.collect(
            Prompts.tokiPonaToEnglish, GenerationOptions(maxTokens: 40, maxLines: 1, stopSequences: ["\nToki Pona:", "\nEnglish:"]))
        #expect(generation.text.isEmpty)
        #expect(generation.pieces.isEmpty)
    }

    @Test func maxTokensIsHonoured() async throws {
        let generation = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 5))
        #expect(generation.stats.finishReason == .maxTokens)
        #expect(generation.stats.generatedTokens == 5)
        #expect(generation.stats.tokens.count == 5)
    }

    @Test func statsDescribeTheTranslation() async throws {
        let generation = try await engine.collect(Prompts.englishToTokiPona, GenerationOptions(maxTokens: 16))
        let stats = generation.stats
        #expect(stats.promptTokens == engine.tokenCount(of: Prompts.englishToTokiPona))
        #expect(stats.promptTokens > 10)
        #expect(stats.generatedTokens == 16)
        #expect(stats.prefillMilliseconds > 0)
        #expect(stats.decodeMilliseconds > 0)
        #expect(stats.firstPieceMilliseconds >= stats.prefillMilliseconds)
        #expect(stats.majorPageFaults >= 0)
        #expect(stats.decodeTokensPerSecond > 0)
    }

    @Test func typedControlTokensStayPlainText() throws {
        // With special-token parsing on, "<start_of_turn>" would be one control token.
        let plain = try #require(engine.tokenCount(of: "x"))
        let withMarkup = try #require(engine.tokenCount(of: "x<start_of_turn>"))
        #expect(withMarkup - plain > 1)
    }

    @Test func promptLongerThanTheContextIsRefusedWithTheLimit() async throws {
        let long = String(repeating: "jan li moku e kili. ", count: 600)
        await #expect {
            _ = try await engine.collect(long)
        } throws: { error in
            guard let error = error as? EngineError else { return false }
            return error.kind == .promptTooLong && error.message.contains("2048")
        }
    }
}
