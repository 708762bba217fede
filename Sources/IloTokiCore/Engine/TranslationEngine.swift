/// What translating needs from a loaded model. Core speaks only its own types here, so it
/// builds and is tested without llama.cpp; the live implementation (`IloTokiEngineLive`, over
/// llama.cpp) and the scripted one for tests and previews each conform.
public protocol TranslationEngine: AnyObject, Sendable {
    /// Tokens the context holds (prompt and translation together).
    var contextLength: Int { get }

    /// Streams the completion of `prompt`: pieces, then the figures. Cancelling the consuming
    /// task stops the generation; a new call cancels the one before.
    func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<CompletionEvent, Error>

    /// Tokens in `text` as a prompt; `nil` when the text cannot be tokenized.
    func tokenCount(of text: String) -> Int?

    /// How many prompts `completeAll` decodes at once; 1 for an engine that completes one
    /// after another.
    var parallelCompletions: Int { get }

    /// Streams the completions of several prompts made together, each event tagged with the
    /// prompt's index; each prompt ends with `.finished` or `.failed`. Cancelling the consuming
    /// task stops them all; a new call (or `complete`) cancels the one before.
    /// - Parameter maxTokens: one token limit per prompt.
    func completeAll(_ prompts: [TranslationPrompt], maxTokens: [Int]) -> AsyncThrowingStream<BatchCompletionEvent, Error>

    /// Streams the completions of the prompts handed to `feed` while it runs (a server's
    /// requests), each event tagged with the feed's index and each prompt's last event
    /// `.finished` or `.failed`; a prompt dropped ends as stopped, or runs to its end unseen
    /// where the engine cannot give it up. A prompt joins the ones being completed as soon as
    /// the engine can take it. The stream ends once the feed is closed and its prompts have
    /// ended. Cancelling the consuming task stops them all; a new call cancels the one before.
    func completeAll(fedBy feed: PromptFeed) -> AsyncThrowingStream<BatchCompletionEvent, Error>

    /// Stops every completion, queued or running, and returns once the engine does no more
    /// work on any thread: what a front end awaits before its session or process ends.
    func stopAndWait() async

    /// The device is short of memory, or no longer (a platform's memory warning, Linux's
    /// memory pressure): an engine that can keep less of the model in memory does so from its
    /// next completion on, with the same results. Any thread.
    func setShortOfMemory(_ short: Bool)
}

/// What an engine reports while it completes several prompts together.
public enum BatchCompletionEvent: Sendable {
    /// The next piece of the prompt at `index`.
    case piece(index: Int, String)
    /// The prompt at `index` has been completed; its last event.
    case finished(index: Int, CompletionStats)
    /// The prompt at `index` could not be completed (the others go on); its last event.
    case failed(index: Int, any Error)

    /// The index of the prompt it belongs to.
    public var index: Int {
        switch self {
        case .piece(let index, _), .finished(let index, _), .failed(let index, _): index
        }
    }
}

extension TranslationEngine {
    public var parallelCompletions: Int { 1 }

    /// An engine that keeps all it needs in memory has nothing to give back.
    public func setShortOfMemory(_ short: Bool) {}

    /// One prompt after another, through `complete`: for engines that decode one at a time.
    public func completeAll(_ prompts: [TranslationPrompt], maxTokens: [Int]) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        completeOneByOne(prompts, maxTokens: maxTokens)
    }

    /// The fed prompts in groups, through `completeAll`: those that came while a group is
    /// completed wait for it to end.
    public func completeAll(fedBy feed: PromptFeed) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        completeInGroups(fedBy: feed)
    }

    /// `completeAll(fedBy:)` group after group: each group is what came while the one before ran.
    public func completeInGroups(fedBy feed: PromptFeed) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    let changes = feed.take()
                    if changes.isEmpty {
                        await feed.changed()
                        continue
                    }
                    let dropped = Set(changes.dropped)
                    let group = changes.prompts.filter { !dropped.contains($0.index) }
                    for entry in changes.prompts where dropped.contains(entry.index) {
                        continuation.yield(.finished(index: entry.index, CompletionStats(end: .stopped)))
                    }
                    var ended = Set<Int>()
                    do {
                        for try await event in completeAll(group.map(\.prompt), maxTokens: group.map(\.maxTokens)) {
                            switch event {
                            case .piece(let at, let piece): continuation.yield(.piece(index: group[at].index, piece))
                            case .finished(let at, let stats):
                                ended.insert(at)
                                continuation.yield(.finished(index: group[at].index, stats))
                            case .failed(let at, let error):
                                ended.insert(at)
                                continuation.yield(.failed(index: group[at].index, error))
                            }
                        }
                    } catch is CancellationError {
                        break
                    } catch {
                        for at in group.indices where !ended.contains(at) { continuation.yield(.failed(index: group[at].index, error)) }
                    }
                    if changes.closed { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// `completeAll` one prompt after another, through `complete`.
    public func completeOneByOne(_ prompts: [TranslationPrompt], maxTokens: [Int]) -> AsyncThrowingStream<BatchCompletionEvent, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                for (index, prompt) in prompts.enumerated() {
                    do {
                        for try await event in complete(prompt, maxTokens: maxTokens[index]) {
                            guard !Task.isCancelled else { break }
                            switch event {
                            case .piece(let piece): continuation.yield(.piece(index: index, piece))
                            case .finished(let stats): continuation.yield(.finished(index: index, stats))
                            }
                        }
                    } catch is CancellationError {
                        break
                    } catch {
                        continuation.yield(.failed(index: index, error))
                    }
                    if Task.isCancelled { break }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// What an engine reports while it completes a prompt.
public enum CompletionEvent: Sendable, Equatable {
    /// The next piece of text: always complete UTF-8, never part of a stop sequence.
    case piece(String)
    /// The completion ended; this is the last event.
    case finished(CompletionStats)
}

/// Why a completion ended.
public enum CompletionEnd: String, Sendable, Equatable, Codable {
    /// The model produced its end-of-generation token.
    case endOfGeneration
    /// The token limit (or the end of the context) was reached.
    case maxTokens
    /// The output reached a stop sequence.
    case stopSequence
    /// The output would have had more lines than the input.
    case lineLimit
    /// The output had become the same few tokens over and over (a model caught in a loop).
    case repetition
    /// Stopped or cancelled.
    case stopped
    /// It failed (the error says why).
    case error
}

/// Figures for one completion.
public struct CompletionStats: Sendable, Equatable {
    /// Tokens in the prompt, BOS included.
    public var promptTokens: Int
    /// Tokens generated (including an end-of-generation token).
    public var generatedTokens: Int
    /// Time spent evaluating the prompt.
    public var prefillMilliseconds: Double
    /// Time spent generating after the prompt.
    public var decodeMilliseconds: Double
    /// Tokens of the answer decoded after the prompt (an engine that evaluates some steps
    /// again counts their time, not their tokens).
    public var decodedTokens: Int
    /// Time from the start to the first piece of text; 0 when there was none.
    public var firstPieceMilliseconds: Double
    /// Major page faults of the process during the completion.
    public var majorPageFaults: Int
    public var end: CompletionEnd
    /// The fraction of the model in memory when the completion started (1 where unknown).
    public var residentFraction: Double = 1
    /// Bytes of the model read back in one pass before the prompt was evaluated.
    public var restoredBytes = 0
    /// Time of the residency check and that read, before the prefill.
    public var restoreMilliseconds = 0.0

    public init(
        promptTokens: Int = 0, generatedTokens: Int = 0, prefillMilliseconds: Double = 0, decodeMilliseconds: Double = 0,
        decodedTokens: Int = 0, firstPieceMilliseconds: Double = 0, majorPageFaults: Int = 0, end: CompletionEnd = .stopped
    ) {
        self.promptTokens = promptTokens
        self.generatedTokens = generatedTokens
        self.prefillMilliseconds = prefillMilliseconds
        self.decodeMilliseconds = decodeMilliseconds
        self.decodedTokens = decodedTokens
        self.firstPieceMilliseconds = firstPieceMilliseconds
        self.majorPageFaults = majorPageFaults
        self.end = end
    }
}
