import Foundation
import IloTokiLLM
import IloTokiTestSupport
import Testing

/// The device says it is short of memory (`Engine.setShortOfMemory`) in the middle of a
/// translation into Toki Pona with the trimmed head: the translation running goes on as it
/// began, the next ones check by streaming the rows they rule out, and when the device has
/// memory again they read them through the mapping again; no token changes.
@Suite(.serialized, .exclusiveModelUse) struct MemoryPressureTests {
    let engine: Engine

    init() throws {
        engine = try Engine(path: try TestModels.require(TestModels.gemma), options: Engine.Options(threads: 2))
    }

    @Test func theChecksFollowTheDevicesMemoryWithTheSameTokens() async throws {
        try #require(engine.info.trimmedHead, "the test model's head can be trimmed")
        try #require(engine.checksStream.isEmpty, "no memory limit here: the checks read through the mapping")
        let prompts = Array(BatchTests.fewShot.prefix(3))
        let trimmed = GenerationOptions(
            maxTokens: 24, head: .trimmed, outputCharacters: BatchTests.tokiPona, widerCharacters: BatchTests.fourLanguages)
        var full = trimmed
        full.head = .full
        var alone: [[Int32]] = []
        for prompt in prompts { alone.append(try await engine.collect(prompt, full).stats.tokens) }

        // Said in the middle of the first translation: it ends as it began.
        var pieces = 0
        var first: GenerationStats?
        for try await event in engine.events(prompt: prompts[0], options: trimmed) {
            switch event {
            case .piece:
                pieces += 1
                if pieces == 2 { engine.setShortOfMemory(true) }
            case .finished(let stats): first = stats
            }
        }
        #expect(first?.tokens == alone[0])
        #expect(first?.head.checks ?? 0 > 0, "the trimmed head checked")

        let second = try await engine.collect(prompts[1], trimmed)
        #expect(second.stats.tokens == alone[1])
        #expect(engine.checksStream.contains("short of memory"), "the checks stream: \(engine.checksStream)")

        engine.setShortOfMemory(false)
        let third = try await engine.collect(prompts[2], trimmed)
        #expect(third.stats.tokens == alone[2])
        #expect(engine.checksStream.isEmpty, "the checks read through the mapping again: \(engine.checksStream)")
    }
}
