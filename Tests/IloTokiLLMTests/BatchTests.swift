import Foundation
import IloTokiLLM
import IloTokiTestSupport
import Testing

/// Several prompts decoded together (`Engine.batchEvents`) on Gemma 3 270M: each gives the
/// tokens it gives alone (with llama.cpp's head and with the trimmed one), a prompt that cannot
/// start fails on its own, a stop ends them all, and a loop ends early with its own finish reason.
@Suite(.serialized, .exclusiveModelUse) struct BatchTests {
    let engine: Engine

    init() throws {
        engine = try Engine(path: try TestModels.require(TestModels.gemma), options: Engine.Options(threads: 2))
    }

    static let prompts = [
        Prompts.englishToTokiPona, Prompts.tokiPonaToEnglish, Prompts.russianToTokiPona, Prompts.vietnameseToTokiPona,
        "Translate this from English to Russian:\nEnglish: The little child plays in the garden.\nRussian:",
        "Translate this from Toki Pona to Vietnamese:\nToki Pona: mi olin e sina.\nVietnamese:",
        "Translate this from English to Toki Pona:\nEnglish: Hello!\nToki Pona:",
        "Translate this from Russian to English:\nRussian: Сегодня мы едем в большой город.\nEnglish:",
        "Translate this from English to Vietnamese:\nEnglish: If you want to learn, read the book.\nVietnamese:",
        "Translate this from Toki Pona to English:\nToki Pona: toki!\nEnglish:",
    ]

    struct Batch {
        var pieces: [Int: [String]] = [:]
        var stats: [Int: GenerationStats] = [:]
        var failures: [Int: EngineError] = [:]
        /// The order in which prompts ended.
        var ends: [Int] = []
    }

    func run(
        _ prompts: [String], sequences: Int, maxTokens: Int = 40, stopAfterPieces: Int? = nil, options: GenerationOptions? = nil
    ) async throws -> Batch {
        var batch = Batch()
        var pieces = 0
        let options = options ?? GenerationOptions(maxTokens: maxTokens)
        for try await event in engine.batchEvents(prompts: prompts, sequences: sequences, options: options) {
            switch event {
            case .piece(let index, let piece):
                #expect(batch.stats[index] == nil && batch.failures[index] == nil, "a piece after prompt \(index) ended")
                batch.pieces[index, default: []].append(piece)
                pieces += 1
                if pieces == stopAfterPieces { engine.stop() }
            case .finished(let index, let stats):
                batch.stats[index] = stats
                batch.ends.append(index)
            case .failed(let index, let error):
                batch.failures[index] = error
                batch.ends.append(index)
            }
        }
        return batch
    }

    @Test func eachPromptGivesTheTokensItGivesAlone() async throws {
        var alone: [[Int32]] = []
        for prompt in Self.prompts {
            alone.append(try await engine.collect(prompt, GenerationOptions(maxTokens: 40, head: .full)).stats.tokens)
        }
        for sequences in [1, 3, 8, 16] {
            let batch = try await run(Self.prompts, sequences: sequences)
            #expect(batch.failures.isEmpty)
            #expect(Set(batch.ends) == Set(Self.prompts.indices), "every prompt ends once")
            for (index, tokens) in alone.enumerated() {
                #expect(batch.stats[index]?.tokens == tokens, "prompt \(index) in a batch of \(sequences)")
                // The pieces add up to the tokens' text, as they do alone.
                let text = (batch.pieces[index] ?? []).joined()
                #expect(Array(text.utf8) == engine.detokenize(tokens), "prompt \(index) text in a batch of \(sequences)")
            }
        }
        // Decoding together is faster than one by one: the aggregate figures say so.
        let totals = engine.currentTotals
        #expect(totals.decodedTokens > 0 && totals.decodeMilliseconds > 0)
    }

    @Test func aPromptThatCannotStartFailsAloneAndTheOthersGoOn() async throws {
        let tooLong = "Translate this:\n" + String(repeating: "mi moku e kili. ", count: 700) + "\nEnglish:"
        let prompts = [Self.prompts[0], "a\0b", Self.prompts[1], tooLong, Self.prompts[2]]
        let batch = try await run(prompts, sequences: 2)
        #expect(Set(batch.failures.keys) == [1, 3])
        #expect(batch.failures[1]?.kind == .invalidText)
        #expect(batch.failures[3]?.kind == .promptTooLong)
        #expect(batch.failures[3]?.message.contains("tokens") == true)
        for index in [0, 2, 4] {
            #expect([.maxTokens, .endOfGeneration, .repetition].contains(batch.stats[index]?.finishReason))
            #expect(batch.stats[index]?.tokens.isEmpty == false)
        }
        // The one after a failure starts in its turn: the batch still gives each its own tokens.
        let alone = try await engine.collect(Self.prompts[1], GenerationOptions(maxTokens: 40, head: .full))
        #expect(batch.stats[2]?.tokens == alone.stats.tokens)
    }

    @Test func aStopInTheMiddleEndsEveryPromptAndNothingFollows() async throws {
        let batch = try await run(Self.prompts, sequences: 4, maxTokens: 64, stopAfterPieces: 12)
        #expect(Set(batch.stats.keys) == Set(Self.prompts.indices), "every prompt ends with figures")
        let stopped = batch.stats.values.filter { $0.finishReason == .stopped }
        #expect(!stopped.isEmpty, "the prompts still running when the stop came end as stopped")
        let pieces = batch.pieces.values.reduce(0) { $0 + $1.count }
        #expect(pieces <= 12 + 4, "at most the pieces already on their way follow the stop")
        // The engine works on afterwards.
        let after = try await run(Array(Self.prompts.prefix(2)), sequences: 2, maxTokens: 8)
        #expect(after.stats.values.allSatisfy { $0.finishReason != .stopped })
    }

    @Test func aLoopEndsEarlyWithItsOwnReason() async throws {
        // The base model answers this by writing the same labelled line again and again.
        let looping = try await engine.collect(
            "English: Hello!\nToki Pona: toki!\nEnglish: Hello!\nToki Pona: toki!\nEnglish: Hello!\nToki Pona:",
            GenerationOptions(maxTokens: 400, head: .full))
        #expect(looping.stats.finishReason == .repetition)
        #expect(looping.stats.generatedTokens < 120, "it stopped at \(looping.stats.generatedTokens) tokens")
        // The same in a batch, beside a prompt that does not loop.
        let batch = try await run(
            [
                "English: Hello!\nToki Pona: toki!\nEnglish: Hello!\nToki Pona: toki!\nEnglish: Hello!\nToki Pona:",
                Prompts.englishToTokiPona,
            ],
            sequences: 2, maxTokens: 400)
        #expect(batch.stats[0]?.finishReason == .repetition)
        #expect(batch.stats[0]?.tokens == looping.stats.tokens)
    }

    /// Few-shot prompts whose answers the base model writes in Toki Pona for a while (then it
    /// opens the next example in English, which the trimmed head widens to).
    static let fewShot = [
        "English: Hello!\nToki Pona: toki!\nEnglish: I eat fruit.\nToki Pona:",
        "English: Good morning!\nToki Pona: suno pona!\nEnglish: The cat sleeps.\nToki Pona:",
        "English: Thank you.\nToki Pona: sina pona.\nEnglish: We go to the big city today.\nToki Pona:",
        "Russian: Привет!\nToki Pona: toki!\nRussian: Я тебя люблю.\nToki Pona:",
        "English: Hello!\nToki Pona: toki!\nEnglish: My mother cooks food for the family.\nToki Pona:",
        "English: Hello!\nToki Pona: toki!\nEnglish: The children play in the water.\nToki Pona:",
    ]
    /// Toki Pona's characters and the four languages' (test data; the app's table is Core's).
    static let tokiPona: [ClosedRange<UInt32>] = [
        0x9...0xA, 0xD...0xD, 0x20...0x40, 0x5B...0x60, 0x7B...0x7E, 0x41...0x41, 0x45...0x45, 0x49...0x50, 0x53...0x55, 0x57...0x57,
        0x61...0x61, 0x65...0x65, 0x69...0x70, 0x73...0x75, 0x77...0x77,
    ]
    static let fourLanguages: [ClosedRange<UInt32>] = [
        0x9...0xA, 0xD...0xD, 0x20...0x7E, 0xA0...0x24F, 0x300...0x36F, 0x400...0x4FF, 0x1EA0...0x1EF9, 0x2010...0x205E,
    ]

    func trimmed(maxTokens: Int, maxLines: Int? = nil) -> GenerationOptions {
        GenerationOptions(
            maxTokens: maxTokens, maxLines: maxLines, head: .trimmed, outputCharacters: Self.tokiPona, widerCharacters: Self.fourLanguages)
    }

    @Test(arguments: [nil, 1] as [Int?])
    func theTrimmedHeadInABatchGivesEachPromptTheTokensItGivesAlone(maxLines: Int?) async throws {
        var full = trimmed(maxTokens: 24, maxLines: maxLines)
        full.head = .full
        var alone: [[Int32]] = []
        for prompt in Self.fewShot { alone.append(try await engine.collect(prompt, full).stats.tokens) }
        for sequences in [1, 2, 4, 8] {
            let batch = try await run(Self.fewShot, sequences: sequences, options: trimmed(maxTokens: 24, maxLines: maxLines))
            #expect(batch.failures.isEmpty)
            for (index, tokens) in alone.enumerated() {
                #expect(
                    batch.stats[index]?.tokens == tokens,
                    "prompt \(index) in a batch of \(sequences), lines \(String(describing: maxLines))")
                let text = (batch.pieces[index] ?? []).joined()
                // A line limit ends the output before its line break, whose token is the last.
                var written = engine.detokenize(tokens)
                if maxLines != nil, let lineBreak = written.firstIndex(of: 10) { written = Array(written[..<lineBreak]) }
                #expect(Array(text.utf8) == written, "prompt \(index) text in a batch of \(sequences)")
            }
            // The trimmed head served the batch's steps: its states were checked.
            let head = engine.currentTotals.head
            #expect(head.checks > 0, "a batch of \(sequences) ran no check: \(head)")
        }
    }

    @Test func aStopInTheMiddleOfATrimmedBatchEndsEveryPrompt() async throws {
        let batch = try await run(Self.fewShot, sequences: 3, stopAfterPieces: 5, options: trimmed(maxTokens: 64))
        #expect(Set(batch.stats.keys) == Set(Self.fewShot.indices), "every prompt ends with figures")
        #expect(batch.stats.values.contains { $0.finishReason == .stopped })
        #expect(batch.pieces.values.reduce(0) { $0 + $1.count } <= 5 + 3)
        // The head and the engine work on: the next batch gives the tokens alone again.
        let alone = try await engine.collect(Self.fewShot[0], GenerationOptions(maxTokens: 16, head: .full))
        let after = try await run(Array(Self.fewShot.prefix(2)), sequences: 2, options: trimmed(maxTokens: 16))
        #expect(after.stats[0]?.tokens == alone.stats.tokens)
    }
}
