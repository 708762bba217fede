import Foundation
import IloTokiLocking

/// A translation engine that answers from a script: for tests, previews and screenshots,
/// where the real model is not wanted. It streams like the real one, piece by piece.
public final class ScriptedEngine: TranslationEngine {
    /// The pieces to stream for a source text (the text as it went into the prompt).
    public typealias Script = @Sendable (_ sourceText: String) -> [String]

    public let contextLength: Int
    /// Prompts `completeAll` streams at once, a piece of each in turn (1: one after another).
    public let parallelCompletions: Int
    private let script: Script
    private let delay: Duration
    private let clock: any Clock<Duration>
    private let state = Locked<[TranslationPrompt]>([])
    private let ended = Locked(0)
    /// The completions not yet ended, by number, for `stopAndWait`.
    private let running = Locked<(next: Int, tasks: [Int: Task<Void, Never>])>((0, [:]))

    /// - Parameters:
    ///   - delay: the pause before each piece, so a test can act while a translation streams.
    ///   - clock: what times that pause: a test passes the clock it moves by hand (the one the
    ///     app model gets), so pieces arrive when the test says, never after a real wait.
    ///   - script: the pieces for each source text.
    public init(
        contextLength: Int = 2048, parallelCompletions: Int = 1, delay: Duration = .zero, clock: any Clock<Duration> = ContinuousClock(),
        script: @escaping Script
    ) {
        self.contextLength = contextLength
        self.parallelCompletions = max(parallelCompletions, 1)
        self.delay = delay
        self.clock = clock
        self.script = script
    }

    /// Every prompt completed so far, in order.
    public var prompts: [TranslationPrompt] { state.withLock { $0 } }

    /// What it was told of the device's memory (`setShortOfMemory`), in order.
    public var memoryWords: [Bool] { words.withLock { $0 } }
    private let words = Locked<[Bool]>([])

    public func setShortOfMemory(_ short: Bool) { words.withLock { $0.append(short) } }

    /// How many completions have ended (finished, or stopped because their consumer went
    /// away): once a completion has ended, no piece of it can arrive any more.
    public var endedCompletions: Int { ended.withLock { $0 } }

    public func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<CompletionEvent, Error> {
        state.withLock { $0.append(prompt) }
        let pieces = script(prompt.sourceText)
        return AsyncThrowingStream { continuation in
            let task = track { [self] in await stream(pieces, of: prompt, into: continuation) }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Runs a completion's work as a task listed for `stopAndWait`, counted in
    /// `endedCompletions` once it ends. It is started under the lock its own end takes, so it
    /// is listed before it can end.
    private func track(_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
        running.withLock { running in
            let number = running.next
            running.next += 1
            let task = Task { [self] in
                defer {
                    self.running.withLock { _ = $0.tasks.removeValue(forKey: number) }
                    ended.withLock { $0 += 1 }
                }
                await work()
            }
            running.tasks[number] = task
            return task
        }
    }

    /// Hands out `pieces`, a pause before each, then the figures.
    private func stream(
        _ pieces: [String], of prompt: TranslationPrompt, into continuation: AsyncThrowingStream<CompletionEvent, Error>.Continuation
    ) async {
        for piece in pieces {
            if delay > .zero { try? await clock.sleep(for: delay) }
            if Task.isCancelled {
                continuation.finish()
                return
            }
            continuation.yield(.piece(piece))
        }
        continuation.yield(
            .finished(CompletionStats(promptTokens: prompt.prompt.count / 4, generatedTokens: pieces.count, end: .endOfGeneration)))
        continuation.finish()
    }

    /// With `parallelCompletions` above 1, the prompts stream together as a batch does: up to
    /// that many at once, a piece of each in turn, a finished one's place taken by the next.
    public func completeAll(_ prompts: [TranslationPrompt], maxTokens: [Int]) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        guard parallelCompletions > 1 else { return completeOneByOne(prompts, maxTokens: maxTokens) }
        state.withLock { $0 += prompts }
        let scripts = prompts.map { script($0.sourceText) }
        let width = parallelCompletions
        return AsyncThrowingStream { continuation in
            let task = track { [self] in
                var window: [(index: Int, next: Int)] = []
                var waiting = Array(prompts.indices)[...]
                while !window.isEmpty || !waiting.isEmpty {
                    while window.count < width, let index = waiting.popFirst() { window.append((index, 0)) }
                    if delay > .zero { try? await clock.sleep(for: delay) }
                    if Task.isCancelled { break }
                    var still: [(index: Int, next: Int)] = []
                    for (index, next) in window {
                        let pieces = scripts[index]
                        if next < pieces.count {
                            continuation.yield(.piece(index: index, pieces[next]))
                            still.append((index, next + 1))
                        } else {
                            continuation.yield(
                                .finished(
                                    index: index,
                                    CompletionStats(
                                        promptTokens: prompts[index].prompt.count / 4, generatedTokens: pieces.count, end: .endOfGeneration)
                                ))
                        }
                    }
                    window = still
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// With `parallelCompletions` above 1, fed prompts stream as a batch does: each joins the
    /// ones streaming as soon as a place is free, a dropped one ends at once as stopped.
    public func completeAll(fedBy feed: PromptFeed) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        guard parallelCompletions > 1 else { return completeInGroups(fedBy: feed) }
        let width = parallelCompletions
        return AsyncThrowingStream { continuation in
            let task = track { [self] in
                var window: [(entry: PromptFeed.Entry, pieces: [String], next: Int)] = []
                var waiting: [PromptFeed.Entry] = []
                var closed = false
                while !Task.isCancelled {
                    let changes = feed.take()
                    closed = closed || changes.closed
                    waiting += changes.prompts
                    for index in changes.dropped {
                        let before = waiting.count + window.count
                        waiting.removeAll { $0.index == index }
                        window.removeAll { $0.entry.index == index }
                        if waiting.count + window.count < before {
                            continuation.yield(.finished(index: index, CompletionStats(end: .stopped)))
                        }
                    }
                    while window.count < width, !waiting.isEmpty {
                        let entry = waiting.removeFirst()
                        state.withLock { $0.append(entry.prompt) }
                        window.append((entry, script(entry.prompt.sourceText), 0))
                    }
                    if window.isEmpty {
                        if closed { break }
                        await feed.changed()
                        continue
                    }
                    if delay > .zero { try? await clock.sleep(for: delay) }
                    if Task.isCancelled { break }
                    var still: [(entry: PromptFeed.Entry, pieces: [String], next: Int)] = []
                    for (entry, pieces, next) in window {
                        if next < pieces.count {
                            continuation.yield(.piece(index: entry.index, pieces[next]))
                            still.append((entry, pieces, next + 1))
                        } else {
                            let stats = CompletionStats(
                                promptTokens: entry.prompt.prompt.count / 4, generatedTokens: pieces.count, end: .endOfGeneration)
                            continuation.yield(.finished(index: entry.index, stats))
                        }
                    }
                    window = still
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func stopAndWait() async {
        for task in running.withLock({ Array($0.tasks.values) }) {
            task.cancel()
            await task.value
        }
    }

    /// About four characters a token, as for real text.
    public func tokenCount(of text: String) -> Int? { text.unicodeScalars.contains("\0") ? nil : max(1, text.count / 4) }
}

/// Hands out engines from a closure: for tests and previews.
public struct ScriptedEngineLoader: EngineLoading {
    private let make: @Sendable (String) async throws -> any TranslationEngine

    public init(_ make: @escaping @Sendable (_ path: String) async throws -> any TranslationEngine) {
        self.make = make
    }

    public func load(path: String) async throws -> any TranslationEngine { try await make(path) }
}
