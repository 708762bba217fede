import Foundation
import IloTokiCore
import IloTokiEngineLive
import IloTokiLLM
import IloTokiTestSupport
import Testing

@testable import IloTokiBench
@testable import IloTokiCLI

/// A context sized to the translation (the prompt plus the output limit, rounded up to 256)
/// gives the tokens the largest one gives: the 36 benchmark prompts on Gemma 3 270M, first in
/// the context a handle starts with, then after a long prompt made it 2,048 tokens, with
/// llama.cpp's head and with the trimmed head (whose rollbacks remove cells from the cache).
@Suite(.serialized, .exclusiveModelUse) struct SizedContextTests {
    let engine: Engine

    init() throws {
        engine = try Engine(path: try TestModels.require(TestModels.gemma), options: Engine.Options(contextLength: 2048, threads: 2))
    }

    func run(_ prompt: TranslationPrompt, head: OutputHead, maxTokens: Int = 32) async throws -> GenerationStats {
        let options = GenerationOptions(maxTokens: maxTokens, head: head).writing(prompt.targetLanguage)
        for try await event in engine.events(prompt: prompt.prompt, options: options) {
            if case .finished(let stats) = event { return stats }
        }
        throw CLIError("The generation ended without figures.")
    }

    func benchmarkTokens(head: OutputHead) async throws -> (tokens: [[Int32]], contexts: Set<Int>) {
        var tokens: [[Int32]] = []
        var contexts: Set<Int> = []
        for prompt in BenchmarkPrompts.all {
            let stats = try await run(
                PromptFormat.sourceTarget.translationPrompt(for: prompt.text, direction: prompt.direction), head: head)
            tokens.append(stats.tokens)
            contexts.insert(stats.contextLength)
        }
        return (tokens, contexts)
    }

    @Test func theBenchmarkPromptsGiveTheSameTokensInASizedContextAsInTheLargest() async throws {
        let sizedFull = try await benchmarkTokens(head: .full)
        let sizedTrimmed = try await benchmarkTokens(head: .trimmed)
        #expect(sizedFull.contexts == [512], "a handle starts with a 512-token context, enough for these prompts")

        // About 1,800 tokens of prompt and 32 of output: the context is made again, 2,048 long.
        let long = PromptFormat.sourceTarget.translationPrompt(
            for: String(repeating: "jan li moku e kili. ", count: 220), direction: .tokiPonaToEnglish)
        let grown = try await run(long, head: .full)
        #expect(grown.promptTokens > 1536 && grown.promptTokens < 2016, "\(grown.promptTokens) prompt tokens")
        #expect(grown.contextLength == 2048)

        let largest = try await benchmarkTokens(head: .full)
        #expect(largest.contexts == [2048], "a larger context is kept for the translations after it")
        #expect(largest.tokens.count == 36 && largest.tokens.allSatisfy { !$0.isEmpty })
        try #require(sizedFull.tokens.count == largest.tokens.count && sizedTrimmed.tokens.count == largest.tokens.count)
        for index in largest.tokens.indices {
            #expect(sizedFull.tokens[index] == largest.tokens[index], "prompt \(index + 1), llama.cpp's head")
            #expect(sizedTrimmed.tokens[index] == largest.tokens[index], "prompt \(index + 1), the trimmed head")
        }
    }

    @Test func aTranslationLongerThanTheLoadsLimitIsRefusedWithoutGrowingTheContext() async throws {
        let small = try Engine(path: try TestModels.require(TestModels.gemma), options: Engine.Options(contextLength: 256, threads: 2))
        let prompt = PromptFormat.sourceTarget.translationPrompt(
            for: String(repeating: "jan li moku e kili. ", count: 60), direction: .tokiPonaToEnglish)
        await #expect(throws: EngineError.self) {
            for try await _ in small.events(prompt: prompt.prompt, options: GenerationOptions(maxTokens: 16)) {}
        }
        // What fits still runs, in a context no larger than the limit.
        var context = 0
        for try await event in small.events(prompt: "English: Hello!\nToki Pona:", options: GenerationOptions(maxTokens: 300)) {
            if case .finished(let stats) = event { context = stats.contextLength }
        }
        #expect(context == 256)
    }
}
