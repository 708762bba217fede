import IloTokiCore
import IloTokiLLM
import IloTokiLocking

/// The translation engine over the llama.cpp core: Core's seam, in Core's own types.
public final class LLMTranslationEngine: TranslationEngine {
    let engine: Engine
    /// The output head each translation uses: fixed, or measured on this machine.
    let heads: HeadChooser

    init(engine: Engine, heads: HeadChooser, sequences: BatchSize = .fitting) {
        self.engine = engine
        self.heads = heads
        self.sequences = sequences
    }

    /// An engine whose translations all use `head`.
    public convenience init(engine: Engine, head: OutputHead, sequences: BatchSize = .fitting) {
        self.init(
            engine: engine, heads: HeadChooser(policy: head == .full ? .full : .trimmed, info: engine.info, path: "", store: nil),
            sequences: sequences)
    }

    /// Where the choice of the output head into `target` stands: the head chosen (`nil` while
    /// it is being measured) and the figures behind it. Each target language is measured on its
    /// own.
    public func headCalibration(into target: Language) -> HeadCalibration { heads.state(into: target) }

    /// The choices for each target language translated into so far.
    public var headCalibrations: [Language: HeadCalibration] { heads.states }

    public var contextLength: Int { engine.info.contextLength }

    public func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<CompletionEvent, Error> {
        let heads = heads
        let target = prompt.targetLanguage
        let head = heads.next(into: target)
        let events = engine.events(
            prompt: prompt.prompt,
            options: GenerationOptions(
                maxTokens: maxTokens, maxLines: prompt.maxLines, stopSequences: prompt.stopSequences, head: head
            ).writing(prompt.targetLanguage))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        switch event {
                        case .piece(let piece): continuation.yield(.piece(piece))
                        case .finished(let stats):
                            if stats.finishReason != .stopped, stats.finishReason != .error {
                                heads.record(head, into: target, stats: stats)
                            }
                            continuation.yield(.finished(CompletionStats(stats)))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func tokenCount(of text: String) -> Int? { engine.tokenCount(of: text) }

    /// Sequences decoded at once: what fits in the memory free now (`BatchSize`), or a fixed
    /// number (the command line's `--batch`).
    public let sequences: BatchSize

    public var parallelCompletions: Int { sequences.count(available: DeviceMemory.available()) }

    public func completeAll(_ prompts: [TranslationPrompt], maxTokens: [Int]) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        let count = parallelCompletions
        // A batch shares its line limit; every chunk the translator makes is one line, which
        // ends at its first line break, so the union of the prompts' stop sequences (each
        // beginning with a line break) ends each one where its own would.
        guard count > 1, prompts.count > 1, Set(prompts.map(\.maxLines)).count == 1, let first = prompts.first else {
            return completeOneByOne(prompts, maxTokens: maxTokens)
        }
        var stops: [String] = []
        for stop in prompts.flatMap(\.stopSequences) where !stops.contains(stop) { stops.append(stop) }
        // Steps of several sentences compute every row with the core's row kernel (the same
        // choices, faster than llama.cpp's head there), unless llama.cpp's head was asked for.
        // Steps of a few sentences into one language use the trimmed head where this machine's
        // measurement chose it (not until it has: a batch's shared steps are not a measurement);
        // prompts into several languages keep every row.
        var options = GenerationOptions(
            maxTokens: maxTokens.max() ?? 512, maxLines: first.maxLines, stopSequences: stops, head: heads.askedForFull ? .full : .trimmed)
        if prompts.allSatisfy({ $0.targetLanguage == first.targetLanguage }), heads.state(into: first.targetLanguage).choice == .trimmed {
            options = options.writing(first.targetLanguage)
        }
        return Self.events(of: engine.batchEvents(prompts: prompts.map(\.prompt), maxTokens: maxTokens, sequences: count, options: options))
    }

    /// Prompts that come while others are decoded join the running batch as slots free
    /// (`Engine.batchEvents(feed:)`); one sequence at a time completes them in groups.
    public func completeAll(fedBy feed: PromptFeed) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        let count = parallelCompletions
        guard count > 1 else { return completeInGroups(fedBy: feed) }
        // Prompts into any language share the batch: a step of several computes every row
        // (with the core's row kernel unless llama.cpp's head was asked for). Prompts into
        // Toki Pona (the target whose kept rows are few) take the trimmed head in the steps
        // they take without a prompt into another language, a lone request's all of them, where
        // this machine's measurement chose it; until it has, they alternate the heads as single
        // translations do, and those that took no step beside another prompt are the
        // measurement.
        var options = GenerationOptions(
            maxTokens: feed.maxTokens, maxLines: feed.maxLines, stopSequences: feed.stopSequences,
            head: heads.askedForFull ? .full : .trimmed)
        let trimmable = heads.askedForFull || heads.state(into: .tokiPona).choice == .full ? nil : Language.tokiPona
        if let trimmable { options = options.writing(trimmable) }
        let fed = FeedOfPrompts(feed, heads: heads, trimmable: trimmable)
        return Self.events(of: engine.batchEvents(feed: fed, sequences: count, options: options)) { index, stats in
            fed.finished(index, stats)
        }
    }

    /// A batch's events in Core's terms; `finished` sees each prompt's figures first.
    static func events(
        of events: AsyncThrowingStream<BatchEvent, Error>, finished: (@Sendable (Int, GenerationStats) -> Void)? = nil
    ) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        switch event {
                        case .piece(let index, let piece): continuation.yield(.piece(index: index, piece))
                        case .finished(let index, let stats):
                            finished?(index, stats)
                            continuation.yield(.finished(index: index, CompletionStats(stats)))
                        case .failed(let index, let error): continuation.yield(.failed(index: index, error))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func setShortOfMemory(_ short: Bool) { engine.setShortOfMemory(short) }

    public func stopAndWait() async {
        engine.stopAll()
        await engine.waitUntilIdle()
    }
}

/// How many sequences a batch decodes at once.
public enum BatchSize: Equatable, Sendable {
    /// As many as the memory free now holds, at most `Engine.defaultSequences`.
    case fitting
    /// This many (1: one sentence after another).
    case fixed(Int)

    /// Memory kept free beside a batch, and what each sequence may take: its KV cache and its
    /// logits (about 6.5 MiB a sequence for Gemma 3 270M, measured in docs/benchmarks.md, "A
    /// paragraph at once"; a 1B model's cache is about three times that), with room to spare.
    static let reserve: Int64 = 256 << 20
    static let perSequence: Int64 = 32 << 20

    public func count(available: Int64?) -> Int {
        switch self {
        case .fixed(let count): return min(max(count, 1), Engine.maxSequences)
        case .fitting:
            guard let available else { return Engine.defaultSequences }
            return Int(min(max((available - Self.reserve) / Self.perSequence, 1), Int64(Engine.defaultSequences)))
        }
    }
}

extension CompletionStats {
    /// The core's figures, in Core's terms.
    public init(_ stats: GenerationStats) {
        self.init(
            promptTokens: stats.promptTokens, generatedTokens: stats.generatedTokens, prefillMilliseconds: stats.prefillMilliseconds,
            decodeMilliseconds: stats.decodeMilliseconds, decodedTokens: stats.answerSteps,
            firstPieceMilliseconds: stats.firstPieceMilliseconds, majorPageFaults: stats.majorPageFaults,
            end: CompletionEnd(stats.finishReason))
        residentFraction = stats.residentFraction
        restoredBytes = stats.restoredBytes
        restoreMilliseconds = stats.restoreMilliseconds
    }
}

extension CompletionEnd {
    init(_ reason: FinishReason) {
        switch reason {
        case .endOfGeneration: self = .endOfGeneration
        case .maxTokens: self = .maxTokens
        case .stopSequence: self = .stopSequence
        case .lineLimit: self = .lineLimit
        case .stopped: self = .stopped
        case .error: self = .error
        case .repetition: self = .repetition
        }
    }
}

/// Core's feed as the engine takes it, each prompt into `trimmable` marked as written in the
/// batch's characters where its head is the trimmed one (the choice, or the next to measure).
private final class FeedOfPrompts: BatchFeeding {
    let feed: PromptFeed
    let heads: HeadChooser
    let trimmable: Language?
    /// The prompts taken while the choice into `trimmable` was being measured, with their head.
    private let measuring = Locked<[Int: OutputHead]>([:])

    init(_ feed: PromptFeed, heads: HeadChooser, trimmable: Language?) {
        self.feed = feed
        self.heads = heads
        self.trimmable = trimmable
    }

    var showsEveryPiece: Bool { feed.showsEveryPiece }

    func take() -> FeedChanges {
        let changes = feed.take()
        return FeedChanges(
            prompts: changes.prompts.map { entry in
                FedPrompt(
                    index: entry.index, prompt: entry.prompt.prompt, maxTokens: entry.maxTokens,
                    inKeptCharacters: head(for: entry) == .trimmed)
            },
            dropped: changes.dropped, closed: changes.closed)
    }

    /// The head a prompt takes where it decodes alone: the trimmed one only into `trimmable`.
    private func head(for entry: PromptFeed.Entry) -> OutputHead {
        guard let trimmable, entry.prompt.targetLanguage == trimmable else { return .full }
        let state = heads.state(into: trimmable)
        if let choice = state.choice { return choice }
        let next = state.next
        measuring.withLock { $0[entry.index] = next }
        return next
    }

    /// A prompt's end: one measured, that decoded alone to a normal end, counts for its head.
    func finished(_ index: Int, _ stats: GenerationStats) {
        guard let trimmable, let head = measuring.withLock({ $0.removeValue(forKey: index) }) else { return }
        guard stats.sharedSteps == 0, stats.finishReason != .stopped, stats.finishReason != .error else { return }
        heads.record(head, into: trimmable, stats: stats)
    }

    func wait(seconds: Double) {
        feed.wait(seconds: seconds)
    }
}
