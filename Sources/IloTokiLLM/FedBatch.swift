import CIloTokiLLM
import Foundation

/// A prompt handed to a batch while it runs.
public struct FedPrompt: Sendable, Equatable {
    /// The index its events carry: the feed gives each prompt its own.
    public var index: Int
    /// The complete prompt.
    public var prompt: String
    /// Its token limit (at most the batch's `GenerationOptions.maxTokens`).
    public var maxTokens: Int
    /// Whether its answer is written in the batch's characters (`GenerationOptions`'s): only
    /// the steps whose every prompt's is may take the trimmed head.
    public var inKeptCharacters: Bool

    public init(index: Int, prompt: String, maxTokens: Int, inKeptCharacters: Bool = true) {
        self.index = index
        self.prompt = prompt
        self.maxTokens = maxTokens
        self.inKeptCharacters = inKeptCharacters
    }
}

/// What came to a feed since the engine last looked.
public struct FeedChanges: Sendable, Equatable {
    /// New prompts, in the order they came.
    public var prompts: [FedPrompt] = []
    /// Prompts given up (their client went away): each ends as stopped, with no piece after.
    public var dropped: [Int] = []
    /// Nothing more will come: the batch ends once its prompts have.
    public var closed = false

    public init(prompts: [FedPrompt] = [], dropped: [Int] = [], closed: Bool = false) {
        self.prompts = prompts
        self.dropped = dropped
        self.closed = closed
    }
}

/// Where a running batch's prompts come from (a server's requests, each arriving while others
/// are translated). The engine calls it on its own thread, between the batch's steps.
public protocol BatchFeeding: AnyObject, Sendable {
    /// Whether the reader of the events shows each piece as it comes; when not, a prompt's
    /// first piece is sent at once and the rest together before its end.
    var showsEveryPiece: Bool { get }
    /// What came since the last call; never blocks.
    func take() -> FeedChanges
    /// Blocks until something comes or `seconds` have passed (the engine has nothing to do).
    func wait(seconds: Double)
}

extension Engine {
    /// Members one batch of the core takes before the prompts that come after wait for the
    /// next (what a batch keeps of each member stays until it ends).
    public static let membersPerFedBatch = 512
    /// Tokens (prompt and translation) each sequence of a fed batch has room for; a prompt
    /// that needs more waits for the running batch to end and starts the next one, sized to it.
    public static let fedRoom = 512

    /// Streams the generations of the prompts handed to `feed` while the batch runs: up to
    /// `sequences` at once, a prompt joining the running batch as soon as a slot frees
    /// (`ilotoki_llm_add_to_batch`), each prompt's tokens the ones it gives alone, greedy.
    /// Events carry the feed's indices; each prompt's last event is `.finished` or `.failed`,
    /// and a prompt given up ends as stopped. The stream ends once the feed is closed and its
    /// prompts have ended; stops, cancellation and supersession work as for
    /// `batchEvents(prompts:)` (after a stop, every prompt taken and not ended finishes as
    /// stopped).
    /// - Parameter options: the token limit, line limit and stop sequences every prompt shares,
    ///   and the head (a character set limits every prompt's rows).
    public func batchEvents(
        feed: any BatchFeeding, sequences: Int = Engine.defaultSequences, options: GenerationOptions = GenerationOptions()
    ) -> AsyncThrowingStream<BatchEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<BatchEvent, Error>.makeStream()
        enqueue(continuation) { [self] job, ticket in
            var run = FedRun(
                engine: self, job: job, ticket: ticket, feed: feed, sequences: sequences, options: options, continuation: continuation)
            run.run()
        } notStarted: { [self] job in
            concludeBatch(job, continuation) {
                for prompt in feed.take().prompts {
                    continuation.yield(.finished(index: prompt.index, GenerationStats(finishReason: .stopped)))
                }
            }
        }
        return stream
    }
}

/// One fed batch on the engine's queue: the core's batches one after another, each taking the
/// prompts that come while it runs, and the map between the core's indices and the feed's.
private struct FedRun {
    let engine: Engine
    let job: Engine.Job
    let ticket: UInt64
    let feed: any BatchFeeding
    let sequences: Int
    let options: GenerationOptions
    let continuation: AsyncThrowingStream<BatchEvent, Error>.Continuation

    /// Prompts taken from the feed that no batch of the core has yet.
    var waiting: [FedPrompt] = []
    /// For a feed whose reader takes whole answers: each prompt whose first piece was sent,
    /// with its text since, sent before its end.
    var held: [Int: String] = [:]
    /// The running batch's prompts not yet ended: the core's index to the feed's, and back.
    var feedIndex: [Int32: Int] = [:]
    var coreIndex: [Int: Int32] = [:]
    /// Whether a batch of the core runs (until its `DONE`).
    var running = false
    /// Whether the running batch takes no more prompts (its members are many, or a prompt
    /// needs more room than its sequences have): the waiting ones start the next.
    var full = false
    var members = 0
    var closed = false
    var error = [CChar](repeating: 0, count: 1024)

    init(
        engine: Engine, job: Engine.Job, ticket: UInt64, feed: any BatchFeeding, sequences: Int, options: GenerationOptions,
        continuation: AsyncThrowingStream<BatchEvent, Error>.Continuation
    ) {
        self.engine = engine
        self.job = job
        self.ticket = ticket
        self.feed = feed
        self.sequences = sequences
        self.options = options
        self.continuation = continuation
    }

    var handle: OpaquePointer { engine.handle.pointer }

    mutating func run() {
        while job.endCause == .none {
            absorb(feed.take())
            if !running {
                if waiting.isEmpty {
                    if closed {
                        continuation.finish()
                        return
                    }
                    feed.wait(seconds: 0.1)
                    continue
                }
                startBatch()
                continue
            }
            if !full { addWaiting() }
            step()
        }
        engine.concludeBatch(job, continuation) {
            for index in coreIndex.keys.sorted() + waiting.map(\.index) + feed.take().prompts.map(\.index) {
                sendHeld(index)
                continuation.yield(.finished(index: index, GenerationStats(finishReason: .stopped)))
            }
        }
    }

    /// Takes in what came: new prompts wait, prompts given up end (at once where no batch of
    /// the core has them yet).
    mutating func absorb(_ changes: FeedChanges) {
        closed = closed || changes.closed
        for prompt in changes.prompts {
            // A prompt with a NUL cannot reach the core whole.
            if prompt.prompt.utf8.contains(0) {
                continuation.yield(
                    .failed(index: prompt.index, EngineError(kind: .invalidText, message: "The text contains a NUL character.")))
            } else {
                waiting.append(prompt)
            }
        }
        for index in changes.dropped {
            if let at = waiting.firstIndex(where: { $0.index == index }) {
                waiting.remove(at: at)
                continuation.yield(.finished(index: index, GenerationStats(finishReason: .stopped)))
            } else if let core = coreIndex[index] {
                // Its end comes from the core, as stopped, with no piece after.
                _ = ilotoki_llm_drop_from_batch(handle, core, &error, error.count)
            }
        }
    }

    /// Starts a batch of the core with the waiting prompts (as many as one batch takes).
    mutating func startBatch() {
        let prompts = Array(waiting.prefix(Engine.membersPerFedBatch))
        waiting.removeFirst(prompts.count)
        let limits = prompts.map { Int32(clamping: $0.maxTokens) }
        let inKept = prompts.map(\.inKeptCharacters)
        let status = withCStringArray(options.stopSequences) { stops in
            var params = engine.startParams(options, ticket: ticket, stops: stops)
            params.joinable_room = Int32(Engine.fedRoom)
            return engine.withCharacterSets(options, in: &params) { params in
                withCStringArray(prompts.map(\.prompt)) { texts in
                    limits.withUnsafeBufferPointer { limits in
                        inKept.withUnsafeBufferPointer { inKept in
                            params.written_in_output_characters = inKept.baseAddress
                            return ilotoki_llm_start_batch(
                                handle, texts.baseAddress, texts.count, limits.baseAddress, Int32(clamping: sequences), &params, &error,
                                error.count)
                        }
                    }
                }
            }
        }
        guard status == ILOTOKI_LLM_OK else {
            // A stop meanwhile is reported by `run`; any other failure is these prompts' own.
            if job.endCause == .none {
                let failure = EngineError(status: status, buffer: error)
                for prompt in prompts { continuation.yield(.failed(index: prompt.index, failure)) }
            } else {
                waiting.insert(contentsOf: prompts, at: 0)
            }
            return
        }
        running = true
        members = prompts.count
        full = members >= Engine.membersPerFedBatch
        feedIndex = [:]
        coreIndex = [:]
        for (core, prompt) in prompts.enumerated() {
            feedIndex[Int32(core)] = prompt.index
            coreIndex[prompt.index] = Int32(core)
        }
    }

    /// Adds the waiting prompts to the running batch, in order, until one does not fit.
    mutating func addWaiting() {
        while let prompt = waiting.first, !full {
            var core: Int32 = -1
            let status = ilotoki_llm_add_to_batch(
                handle, prompt.prompt, Int32(clamping: prompt.maxTokens), prompt.inKeptCharacters, &core, &error, error.count)
            switch status {
            case ILOTOKI_LLM_OK:
                waiting.removeFirst()
                feedIndex[core] = prompt.index
                coreIndex[prompt.index] = core
                members += 1
                full = members >= Engine.membersPerFedBatch
            case ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG, ILOTOKI_LLM_ERROR_NOT_STARTED:
                // Needs more room than this batch's sequences, or the batch is ending: it
                // starts the next one.
                full = true
            default:
                waiting.removeFirst()
                continuation.yield(.failed(index: prompt.index, EngineError(status: status, buffer: error)))
            }
        }
    }

    /// One event of the running batch, passed on under the feed's index.
    mutating func step() {
        var core: Int32 = -1
        var text: UnsafePointer<CChar>?
        var length = 0
        let status = ilotoki_llm_next_batch(handle, &core, &text, &length, &error, error.count)
        guard job.endCause == .none else { return }
        switch status {
        case ILOTOKI_LLM_OK:
            guard let index = feedIndex[core] else { return }
            let piece = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
            if feed.showsEveryPiece || held[index] == nil {
                continuation.yield(.piece(index: index, piece))
                if !feed.showsEveryPiece { held[index] = "" }
            } else {
                held[index, default: ""] += piece
            }
        case ILOTOKI_LLM_SEQUENCE_DONE:
            guard let index = feedIndex.removeValue(forKey: core) else { return }
            coreIndex[index] = nil
            sendHeld(index)
            continuation.yield(engine.sequenceEnd(core, as: index))
        case ILOTOKI_LLM_DONE:
            endBatch(.stopped)
        default:
            endBatch(.error, EngineError(status: status, buffer: error))
        }
    }

    /// Sends what was held of a prompt's text (a feed whose reader takes whole answers),
    /// before the prompt's end.
    mutating func sendHeld(_ index: Int) {
        if let text = held.removeValue(forKey: index), !text.isEmpty { continuation.yield(.piece(index: index, text)) }
    }

    /// The core's batch has ended: its prompts not reported end now (none after a normal end),
    /// and the next prompts start a new one.
    mutating func endBatch(_ reason: FinishReason, _ failure: EngineError? = nil) {
        for (core, index) in feedIndex.sorted(by: { $0.key < $1.key }) {
            sendHeld(index)
            if let failure {
                continuation.yield(.failed(index: index, failure))
            } else {
                var stats = engine.sequenceStats(Int(core))
                if stats.finishReason != .stopped { stats.finishReason = reason }
                continuation.yield(.finished(index: index, stats))
            }
        }
        feedIndex = [:]
        coreIndex = [:]
        held = [:]
        running = false
        full = false
        members = 0
    }
}
