import CIloTokiLLM
import Foundation
import IloTokiLLM
import IloTokiLocking
import IloTokiTestSupport
import Testing

/// Stopping a running generation: from another thread through the C API, and by
/// cancelling or replacing a Swift stream. The handle keeps working afterwards.
@Suite(.serialized, .exclusiveModelUse) struct StopTests {
    /// A C handle shared between two threads; the core makes `stop` safe from any thread.
    final class SharedHandle: @unchecked Sendable {
        let pointer: OpaquePointer
        init(path: String) throws {
            var error = [CChar](repeating: 0, count: 512)
            var handle: OpaquePointer?
            let status = ilotoki_llm_load(path, nil, &handle, &error, error.count)
            guard status == ILOTOKI_LLM_OK, let handle else { throw EngineError(kind: .internal, message: "load failed: \(status)") }
            pointer = handle
        }
        deinit { ilotoki_llm_free(pointer) }

        /// Runs a whole generation; returns the text and the number of tokens.
        func generate(_ prompt: String, maxTokens: Int32) -> (text: [UInt8], tokens: [Int32]) {
            var params = ilotoki_llm_default_start_params()
            params.max_tokens = maxTokens
            var error = [CChar](repeating: 0, count: 512)
            guard ilotoki_llm_start(pointer, prompt, &params, &error, error.count) == ILOTOKI_LLM_OK else { return ([], []) }
            var text: [UInt8] = []
            var piece: UnsafePointer<CChar>?
            var length = 0
            while ilotoki_llm_next(pointer, &piece, &length, &error, error.count) == ILOTOKI_LLM_OK {
                text += UnsafeRawBufferPointer(start: piece, count: length)
            }
            let count = ilotoki_llm_generated_tokens(pointer, nil, 0)
            var tokens = [Int32](repeating: 0, count: Int(count))
            _ = ilotoki_llm_generated_tokens(pointer, &tokens, count)
            return (text, tokens)
        }
    }

    @Test func stopFromAnotherThreadEndsGenerationAndNoPieceFollows() throws {
        let shared = try SharedHandle(path: try TestModels.require(TestModels.gemma))
        let reference = shared.generate(Prompts.russianToTokiPona, maxTokens: 40)

        var params = ilotoki_llm_default_start_params()
        params.max_tokens = 400
        var error = [CChar](repeating: 0, count: 512)
        #expect(ilotoki_llm_start(shared.pointer, Prompts.englishToTokiPona, &params, &error, error.count) == ILOTOKI_LLM_OK)

        let piecesSoFar = Locked(0)
        let stopReturned = Locked(false)
        let stopper = Thread {
            while piecesSoFar.value < 5 { usleep(200) }
            ilotoki_llm_stop(shared.pointer)
            stopReturned.store(true)
        }
        stopper.start()

        // Every call to next records whether stop had already returned when it began.
        var piecesAfterStopReturned = 0
        var calls = 0
        var piece: UnsafePointer<CChar>?
        var length = 0
        while true {
            let stopHadReturned = stopReturned.value
            let status = ilotoki_llm_next(shared.pointer, &piece, &length, &error, error.count)
            calls += 1
            if status != ILOTOKI_LLM_OK {
                #expect(status == ILOTOKI_LLM_DONE)
                break
            }
            if stopHadReturned { piecesAfterStopReturned += 1 }
            piecesSoFar.withLock { $0 += 1 }
        }
        while !stopReturned.value { usleep(200) }
        #expect(piecesAfterStopReturned == 0)
        // Once stopped, next keeps answering DONE.
        #expect(ilotoki_llm_next(shared.pointer, &piece, &length, &error, error.count) == ILOTOKI_LLM_DONE)

        var stats = ilotoki_llm_stats()
        ilotoki_llm_get_stats(shared.pointer, &stats)
        #expect(stats.finish_reason == ILOTOKI_LLM_FINISH_STOPPED)
        #expect(stats.generated_tokens < 400)

        // The handle then serves a new translation exactly as before.
        let again = shared.generate(Prompts.russianToTokiPona, maxTokens: 40)
        #expect(again.tokens == reference.tokens)
        #expect(again.text == reference.text)
    }

    @Test func stopDuringPromptEvaluationIsHonoured() throws {
        let shared = try SharedHandle(path: try TestModels.require(TestModels.gemma))
        // A long prompt takes a while to evaluate; stop lands in the middle of it.
        let prompt =
            "Translate this from English to Toki Pona:\nEnglish: " + String(repeating: "The cat sleeps. ", count: 250) + "\nToki Pona:"
        let stopper = Thread {
            // Once `start` has taken this prompt (its figures show the prompt's 1,000-odd tokens,
            // more than any other prompt on the handle), its evaluation is under way.
            var stats = ilotoki_llm_stats()
            let deadline = ContinuousClock.now + .seconds(60)
            repeat {
                usleep(100)
                ilotoki_llm_get_stats(shared.pointer, &stats)
            } while stats.prompt_tokens < 900 && ContinuousClock.now < deadline
            ilotoki_llm_stop(shared.pointer)
        }
        var params = ilotoki_llm_default_start_params()
        params.max_tokens = 100
        var error = [CChar](repeating: 0, count: 512)
        stopper.start()
        #expect(ilotoki_llm_start(shared.pointer, prompt, &params, &error, error.count) == ILOTOKI_LLM_OK)
        var piece: UnsafePointer<CChar>?
        var length = 0
        var pieces = 0
        while ilotoki_llm_next(shared.pointer, &piece, &length, &error, error.count) == ILOTOKI_LLM_OK { pieces += 1 }
        var stats = ilotoki_llm_stats()
        ilotoki_llm_get_stats(shared.pointer, &stats)
        #expect(stats.finish_reason == ILOTOKI_LLM_FINISH_STOPPED)
        #expect(pieces == 0)
    }

    @Test func stopBetweenTranslationsDoesNotEndTheNextOne() throws {
        let shared = try SharedHandle(path: try TestModels.require(TestModels.gemma))
        ilotoki_llm_stop(shared.pointer)
        let result = shared.generate(Prompts.englishToTokiPona, maxTokens: 12)
        #expect(result.tokens.count == 12)
    }

    @Test func cancellingTheConsumingTaskStopsTheGeneration() async throws {
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        let reference = try await engine.collect(Prompts.vietnameseToTokiPona, GenerationOptions(maxTokens: 32))

        let received = Locked(0)
        let task = Task {
            for try await _ in engine.generate(prompt: Prompts.englishToTokiPona, maxTokens: 400) {
                received.withLock { $0 += 1 }
            }
        }
        while received.value < 3 { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        _ = await task.result
        await engine.waitUntilIdle()

        // The cancelled generation stopped early, and the engine answers as before.
        let cancelled = try #require(engine.lastStats)
        #expect(cancelled.finishReason == .stopped)
        #expect(cancelled.generatedTokens < 400)
        let after = try await engine.collect(Prompts.vietnameseToTokiPona, GenerationOptions(maxTokens: 32))
        #expect(after.stats.tokens == reference.stats.tokens)
        #expect(after.text == reference.text)
    }

    @Test func aNewGenerationCancelsTheRunningOne() async throws {
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        let reference = try await engine.collect(Prompts.russianToTokiPona, GenerationOptions(maxTokens: 32))

        let first = engine.generate(prompt: Prompts.englishToTokiPona, maxTokens: 400)
        var iterator = first.makeAsyncIterator()
        _ = try await iterator.next()
        let second = try await engine.collect(Prompts.russianToTokiPona, GenerationOptions(maxTokens: 32))
        #expect(second.text == reference.text)
        #expect(second.stats.tokens == reference.stats.tokens)

        var ending: Error?
        do {
            while try await iterator.next() != nil {}
        } catch {
            ending = error
        }
        #expect(ending is CancellationError)
    }

    @Test func engineStopEndsTheStreamNormallyWithReasonStopped() async throws {
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        var stats: GenerationStats?
        var pieces = 0
        for try await event in engine.events(prompt: Prompts.englishToTokiPona, options: GenerationOptions(maxTokens: 400)) {
            switch event {
            case .piece:
                pieces += 1
                if pieces == 2 { engine.stop() }
            case .finished(let figures): stats = figures
            }
        }
        #expect(stats?.finishReason == .stopped)
        #expect((stats?.generatedTokens ?? 400) < 400)
    }

    /// A prompt of several hundred tokens, so its evaluation takes a while to stop inside.
    static let longPrompt =
        "Translate this from English to Toki Pona:\nEnglish: "
        + String(repeating: "The people of the village walk to the river in the morning and bring water home. ", count: 16)
        + "\nToki Pona:"

    /// Collects one generation of `prompt`, calling `engine.stop()` after `delay`.
    func generation(
        _ engine: Engine, stoppingAfter delay: Duration, options: GenerationOptions = GenerationOptions(maxTokens: 16)
    ) async throws -> Generation {
        let events = engine.events(prompt: Self.longPrompt, options: options)
        let stopper = Task {
            if delay > .zero { try? await Task.sleep(for: delay) }
            engine.stop()
        }
        defer { stopper.cancel() }
        var pieces: [String] = []
        var stats: GenerationStats?
        for try await event in events {
            switch event {
            case .piece(let piece): pieces.append(piece)
            case .finished(let figures): stats = figures
            }
        }
        _ = await stopper.value
        guard let stats else { throw GenerationDidNotFinish() }
        return Generation(pieces: pieces, stats: stats)
    }

    @Test func aStopAtAnyPointOfThePromptEndsThatTranslation() async throws {
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        let whole = try await engine.collect(Self.longPrompt, GenerationOptions(maxTokens: 16))
        #expect(whole.stats.promptTokens > 250)
        let prefill = whole.stats.prefillMilliseconds

        // Right after asking, again and again: the window between the engine taking the job
        // and the core starting it is where a stop used to be lost.
        for round in 0..<10 {
            let stopped = try await generation(engine, stoppingAfter: .zero)
            #expect(stopped.stats.finishReason == .stopped, "round \(round)")
            #expect(stopped.pieces.isEmpty, "round \(round): \(stopped.pieces)")
        }
        // And at points spread over the first half of the prompt's evaluation: evaluated whole
        // each time (a prompt started from the cached cells of the same prompt is evaluated in
        // a moment, before any of these points).
        let wholePrompt = GenerationOptions(maxTokens: 16, reusePrefix: false)
        for step in 1...6 {
            let delay = Duration.microseconds(Int64(prefill * 1000 * Double(step) / 12))
            let stopped = try await generation(engine, stoppingAfter: delay, options: wholePrompt)
            #expect(stopped.stats.finishReason == .stopped, "stop after \(delay)")
            #expect(stopped.pieces.isEmpty, "stop after \(delay): \(stopped.pieces)")
        }
        // The engine translates as before afterwards.
        let again = try await engine.collect(Self.longPrompt, GenerationOptions(maxTokens: 16))
        #expect(again.stats.tokens == whole.stats.tokens)
    }

    @Test func aStopBeforeTheCoreBeginsIsNotLost() async throws {
        // Between the engine taking a job and the core beginning it lies a little work (the
        // stop sequences are copied for the core). Many stop sequences make that gap wide
        // enough to stop inside it on purpose; a stop there used to reach the translation
        // before, and this one then ran to its end.
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        let stops = (0..<150_000).map { "\u{1}never \($0)" }
        let options = GenerationOptions(maxTokens: 16, stopSequences: stops)
        for milliseconds in stride(from: 0, through: 40, by: 4) {
            let stopped = try await generation(engine, stoppingAfter: .milliseconds(milliseconds), options: options)
            #expect(stopped.stats.finishReason == .stopped, "stop after \(milliseconds) ms")
            #expect(stopped.pieces.isEmpty, "stop after \(milliseconds) ms: \(stopped.pieces)")
        }
    }

    @Test func cancellingNeverWaitsForTheModel() async throws {
        // Checking and tokenizing a huge text cannot be interrupted; cancelling meanwhile must
        // return at once (it runs wherever the consumer is, often the main actor) and leave
        // the core to finish on its own thread.
        let engine = try Engine(path: try TestModels.require(TestModels.gemma))
        let huge = String(repeating: "jan li moku e kili. ", count: 150_000)
        let task = Task {
            for try await _ in engine.generate(prompt: huge, maxTokens: 4) {}
        }
        while !engine.isRunning { await Task.yield() }  // the generation has reached the core
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        let cancelTook = clock.now - cancelled
        _ = await task.result
        await engine.waitUntilIdle()
        let busyFor = clock.now - cancelled
        // Not a speed target: a cancel that waits for the core takes as long as the core
        // needs (here thousands of times longer than one that does not).
        #expect(cancelTook * 10 < busyFor, "cancel took \(cancelTook), the core needed \(busyFor)")
    }

    @Test func randomWeightsNeverProduceBrokenUTF8() throws {
        // A random model emits byte tokens that split characters or never complete one.
        let shared = try SharedHandle(path: try TestModels.require(TestModels.tiny))
        var params = ilotoki_llm_default_start_params()
        params.max_tokens = 400
        var error = [CChar](repeating: 0, count: 512)
        let prompt = "Переведи: Tiếng Việt ☃ 🙂"
        #expect(ilotoki_llm_start(shared.pointer, prompt, &params, &error, error.count) == ILOTOKI_LLM_OK)
        var piece: UnsafePointer<CChar>?
        var length = 0
        var streamed: [UInt8] = []
        while ilotoki_llm_next(shared.pointer, &piece, &length, &error, error.count) == ILOTOKI_LLM_OK {
            let bytes = Array(UnsafeRawBufferPointer(start: piece, count: length))
            #expect(!bytes.isEmpty)
            #expect(String(validating: bytes, as: UTF8.self) != nil, "piece \(bytes) is not valid UTF-8")
            streamed += bytes
        }
        // The pieces add up to the generated tokens' bytes, with each broken character
        // replaced by U+FFFD, as a UTF-8 decoder replaces it.
        let count = ilotoki_llm_generated_tokens(shared.pointer, nil, 0)
        var tokens = [Int32](repeating: 0, count: Int(max(count, 0)))
        _ = ilotoki_llm_generated_tokens(shared.pointer, &tokens, count)
        let needed = ilotoki_llm_detokenize(shared.pointer, tokens, count, nil, 0)
        var raw = [CChar](repeating: 0, count: Int(max(needed, 1)))
        let written = ilotoki_llm_detokenize(shared.pointer, tokens, count, &raw, needed)
        let whole = raw.prefix(Int(max(written, 0))).map { UInt8(bitPattern: $0) }
        #expect(!whole.isEmpty)
        // Detokenizing in one go drops the first token's leading space (SentencePiece); the stream keeps it.
        let text = String(decoding: streamed, as: UTF8.self)
        let expected = String(decoding: whole, as: UTF8.self)
        #expect(text.hasPrefix(" ") ? String(text.dropFirst()) == expected : text == expected)
    }
}
