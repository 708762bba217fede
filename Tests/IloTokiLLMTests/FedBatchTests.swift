import Foundation
import IloTokiLLM
import IloTokiLocking
import IloTokiTestSupport
import Testing

/// Prompts handed to a running batch (`Engine.batchEvents(feed:)`, what `ilotoki serve` decodes
/// its requests with) on Gemma 3 270M: each joins the batch while the others run and gives the
/// tokens it gives alone, one given up ends as stopped while the others go on, and the stream
/// ends once the feed is closed.
@Suite(.serialized, .exclusiveModelUse) struct FedBatchTests {
    let engine: Engine

    init() throws {
        engine = try Engine(path: try TestModels.require(TestModels.gemma), options: Engine.Options(threads: 2))
    }

    /// A feed the test fills while the batch runs: at once, or on the engine's own schedule
    /// (after its Nth look between steps, whatever the test's thread is doing meanwhile).
    final class Feed: BatchFeeding {
        let showsEveryPiece: Bool
        private let changes = Locked(FeedChanges())

        init(showsEveryPiece: Bool = true) {
            self.showsEveryPiece = showsEveryPiece
        }
        private let schedule = Locked<(looks: Int, due: [Int: FeedChanges])>((0, [:]))

        func add(_ index: Int, _ prompt: String, maxTokens: Int = 24, inKeptCharacters: Bool = true) {
            changes.withLock {
                $0.prompts.append(FedPrompt(index: index, prompt: prompt, maxTokens: maxTokens, inKeptCharacters: inKeptCharacters))
            }
        }

        func drop(_ index: Int) { changes.withLock { $0.dropped.append(index) } }
        func close() { changes.withLock { $0.closed = true } }

        /// What the engine gets at its `look`th call of `take` (from 1).
        func at(look: Int, _ due: FeedChanges) { schedule.withLock { $0.due[look] = due } }

        func take() -> FeedChanges {
            let due = schedule.withLock { schedule in
                schedule.looks += 1
                return schedule.due.removeValue(forKey: schedule.looks)
            }
            return changes.withLock { changes in
                if let due {
                    changes.prompts += due.prompts
                    changes.dropped += due.dropped
                    changes.closed = changes.closed || due.closed
                }
                defer { changes = FeedChanges(closed: changes.closed) }
                return changes
            }
        }

        func wait(seconds: Double) { Thread.sleep(forTimeInterval: min(seconds, 0.005)) }
    }

    struct Run {
        var pieces: [Int: [String]] = [:]
        var stats: [Int: GenerationStats] = [:]
        var failures: [Int: EngineError] = [:]
        /// Every event's prompt, in order ("+3": its first piece, "3": its end).
        var order: [String] = []
    }

    /// Runs a fed batch; `react` is told the count of events so far after each and may feed more.
    func run(
        _ feed: Feed, sequences: Int, head: OutputHead, options: GenerationOptions? = nil, react: (Int) -> Void = { _ in }
    ) async throws -> Run {
        var run = Run()
        var events = 0
        let options = options ?? GenerationOptions(maxTokens: 24, head: head)
        for try await event in engine.batchEvents(feed: feed, sequences: sequences, options: options) {
            switch event {
            case .piece(let index, let piece):
                #expect(run.stats[index] == nil && run.failures[index] == nil, "a piece after prompt \(index) ended")
                if run.pieces[index] == nil { run.order.append("+\(index)") }
                run.pieces[index, default: []].append(piece)
            case .finished(let index, let stats):
                #expect(run.stats[index] == nil, "prompt \(index) ended twice")
                run.stats[index] = stats
                run.order.append("\(index)")
            case .failed(let index, let error):
                run.failures[index] = error
                run.order.append("\(index)")
            }
            events += 1
            react(events)
        }
        return run
    }

    @Test(arguments: [OutputHead.full, .trimmed])
    func promptsThatJoinARunningBatchGiveTheTokensTheyGiveAlone(head: OutputHead) async throws {
        let prompts = Array(BatchTests.prompts.prefix(6))
        var alone: [[Int32]] = []
        for prompt in prompts { alone.append(try await engine.collect(prompt, GenerationOptions(maxTokens: 24, head: .full)).stats.tokens) }
        try #require(alone[0].count >= 8 && alone[1].count >= 8, "the first two run long enough for others to join them")

        let feed = Feed()
        feed.add(0, prompts[0])
        feed.add(1, prompts[1])
        // One more prompt every third step of the engine, while the first ones still run.
        for index in 2..<prompts.count {
            feed.at(look: 3 * (index - 1), FeedChanges(prompts: [FedPrompt(index: index, prompt: prompts[index], maxTokens: 24)]))
        }
        feed.at(look: 3 * (prompts.count - 1), FeedChanges(closed: true))
        let run = try await run(feed, sequences: 4, head: head) { _ in }
        #expect(run.failures.isEmpty)
        #expect(Set(run.stats.keys) == Set(prompts.indices), "every prompt ends once")
        for (index, tokens) in alone.enumerated() {
            #expect(run.stats[index]?.tokens == tokens, "prompt \(index), joined with the \(head) head")
            #expect(Array((run.pieces[index] ?? []).joined().utf8) == engine.detokenize(tokens), "prompt \(index)'s text")
        }
        // Prompt 2 joined while 0 and 1 ran: its first piece came before both had ended.
        let firstOfTwo = try #require(run.order.firstIndex(of: "+2"))
        let lastEnd = try #require([run.order.firstIndex(of: "0"), run.order.firstIndex(of: "1")].compactMap { $0 }.max())
        #expect(firstOfTwo < lastEnd, "prompt 2 waited for the batch to end: \(run.order)")
    }

    /// A server's requests go into several languages: one into the batch's characters (Toki
    /// Pona) takes the trimmed head where it decodes alone, one into English never does, and
    /// together each gives the tokens it gives alone.
    @Test func onlyPromptsIntoTheKeptCharactersTakeTheTrimmedHead() async throws {
        let intoTokiPona = BatchTests.fewShot[1]
        let intoEnglish = Prompts.tokiPonaToEnglish
        let options = GenerationOptions(
            maxTokens: 24, head: .trimmed, outputCharacters: BatchTests.tokiPona, widerCharacters: BatchTests.fourLanguages)
        var full = options
        full.head = .full
        let aloneTokiPona = try await engine.collect(intoTokiPona, full).stats.tokens
        let aloneEnglish = try await engine.collect(intoEnglish, full).stats.tokens
        let aloneOther = try await engine.collect(BatchTests.fewShot[3], full).stats.tokens

        // Each alone in a fed batch: the trimmed head's checks run for the one into Toki Pona only.
        for (prompt, inKept, alone) in [(intoTokiPona, true, aloneTokiPona), (intoEnglish, false, aloneEnglish)] {
            let feed = Feed()
            feed.add(0, prompt, inKeptCharacters: inKept)
            feed.close()
            let run = try await run(feed, sequences: 4, head: .trimmed, options: options)
            let stats = try #require(run.stats[0])
            #expect(stats.tokens == alone, "in kept characters: \(inKept)")
            #expect(stats.sharedSteps == 0, "it decoded alone")
            let checks = engine.currentTotals.head.checks
            #expect(inKept ? checks > 0 : checks == 0, "in kept characters: \(inKept), \(checks) checks")
        }

        // Together: the steps they share compute every row; each gives its tokens alone.
        let feed = Feed()
        feed.add(0, intoTokiPona)
        feed.add(1, intoEnglish, inKeptCharacters: false)
        feed.add(2, BatchTests.fewShot[3])
        feed.close()
        let run = try await run(feed, sequences: 4, head: .trimmed, options: options)
        #expect(run.failures.isEmpty)
        #expect(run.stats[0]?.tokens == aloneTokiPona)
        #expect(run.stats[1]?.tokens == aloneEnglish)
        #expect(run.stats[2]?.tokens == aloneOther)
        #expect((run.stats[1]?.sharedSteps ?? 0) > 0, "the prompts decoded together")
    }

    /// A server answers whole texts: its feed takes a prompt's first piece at once (the
    /// prompt has begun) and the rest in one piece before its end, the same text.
    @Test func aFeedThatTakesWholeAnswersGetsTheSameTextInTwoPieces() async throws {
        let prompts = Array(BatchTests.prompts.prefix(4))
        let feed = Feed(showsEveryPiece: false)
        for (index, prompt) in prompts.enumerated() { feed.add(index, prompt) }
        feed.close()
        let run = try await run(feed, sequences: 2, head: .full) { _ in }
        #expect(run.failures.isEmpty && run.stats.count == prompts.count)
        for index in prompts.indices {
            let stats = try #require(run.stats[index])
            let pieces = run.pieces[index] ?? []
            try #require(stats.tokens.count >= 3, "prompt \(index) gives several tokens")
            #expect(pieces.count == 2, "prompt \(index): \(pieces.count) pieces")
            #expect(Array(pieces.joined().utf8) == engine.detokenize(stats.tokens), "prompt \(index)'s text")
        }
    }

    @Test func aPromptGivenUpEndsStoppedAndTheOthersGoOn() async throws {
        let prompts = Array(BatchTests.prompts.prefix(3))
        let alone = try await engine.collect(prompts[2], GenerationOptions(maxTokens: 24, head: .full)).stats.tokens
        let feed = Feed()
        for (index, prompt) in prompts.enumerated() { feed.add(index, prompt) }
        // 3 is given up before it starts; 1 after its first pieces.
        feed.add(3, prompts[0])
        feed.drop(3)
        feed.at(look: 5, FeedChanges(dropped: [1], closed: true))
        let run = try await run(feed, sequences: 2, head: .full) { _ in }
        #expect(run.stats[1]?.finishReason == .stopped)
        #expect(run.stats[3]?.finishReason == .stopped)
        #expect(run.pieces[3] == nil, "a prompt given up before it started gave no piece")
        #expect(run.stats[2]?.tokens == alone, "the prompt after the one given up gives its tokens alone")
        #expect(run.stats[0]?.finishReason != .stopped)
    }

    @Test func aClosedFeedWithNothingLeftEndsAndAStopEndsEveryPrompt() async throws {
        let empty = Feed()
        empty.close()
        let nothing = try await run(empty, sequences: 2, head: .full) { _ in }
        #expect(nothing.stats.isEmpty && nothing.failures.isEmpty)

        let feed = Feed()
        feed.add(0, BatchTests.prompts[0], maxTokens: 64)
        feed.add(1, BatchTests.prompts[1], maxTokens: 64)
        feed.add(2, "a\0b")
        let run = try await run(feed, sequences: 2, head: .full) { events in
            if events == 5 { engine.stop() }
        }
        #expect(run.failures[2]?.kind == .invalidText)
        #expect(run.stats[0] != nil && run.stats[1] != nil, "a stop ends every prompt, with figures")
        #expect(run.stats.values.contains { $0.finishReason == .stopped })
        // The engine works on afterwards.
        let after = try await engine.collect(BatchTests.prompts[0], GenerationOptions(maxTokens: 8, head: .full))
        #expect(after.stats.finishReason != .stopped)
    }
}
