import CIloTokiLLM
import Dispatch
import Foundation
import IloTokiLocking

/// A loaded model that turns prompts into streamed text.
///
/// All work with the model (loading, evaluating, generating) runs off Swift's cooperative
/// thread pool: loading on a thread of its own, generation on the engine's serial queue,
/// so a slow phone never starves the rest of the app. One generation runs at a time; a new
/// one cancels the one before it.
public final class Engine: Sendable {
    /// How the model is loaded.
    public struct Options: Sendable, Equatable {
        /// Tokens the context holds (prompt and output together).
        public var contextLength: Int
        /// Decoding threads; `nil` uses `PerformanceCores.count`.
        public var threads: Int?
        /// Prompt tokens evaluated per batch; `nil` means the whole context.
        public var batchSize: Int?
        /// Flash attention on or off; `nil` lets llama.cpp decide.
        public var flashAttention: Bool?

        public init(contextLength: Int = 2048, threads: Int? = nil, batchSize: Int? = nil, flashAttention: Bool? = nil) {
            self.contextLength = contextLength
            self.threads = threads
            self.batchSize = batchSize
            self.flashAttention = flashAttention
        }
    }

    /// The model file.
    public let path: String
    /// Facts about the loaded model.
    public let info: ModelInfo

    let handle: Handle
    private let queue = DispatchQueue(label: "ilotoki.engine", qos: .userInitiated)
    private let state = Locked(State())

    struct Handle: @unchecked Sendable {
        // The C core serialises work on one handle itself; `stop` is safe from any thread.
        let pointer: OpaquePointer
    }

    private struct State {
        /// The most recently requested generation.
        var latest: Job?
        /// The generation the core is working on now.
        var running: Job?
        /// Figures of the last generation that ran, however it ended.
        var lastStats: GenerationStats?
    }

    /// Loads a model on a thread of its own.
    /// - Parameters:
    ///   - path: the GGUF file.
    ///   - options: how to load it.
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public static func load(path: String, options: Options = Options()) async throws -> Engine {
        try await onThreadOfItsOwn(named: "ilotoki.load") { try Engine(path: path, options: options) }
    }

    /// Checks that a file is a model this build can run (its GGUF structure, architecture and
    /// vocabulary) without loading its weights, on a thread of its own.
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public static func check(path: String) async throws {
        try await onThreadOfItsOwn(named: "ilotoki.check") {
            var error = [CChar](repeating: 0, count: 1024)
            guard let status = CoreWork.shared.perform({ ilotoki_llm_check_model(path, &error, error.count) }) else {
                throw EngineError.closing
            }
            guard status == ILOTOKI_LLM_OK else { throw EngineError(status: status, buffer: error) }
        }
    }

    /// Stops every generation of every engine in the process, waits until no load, check,
    /// generation or free of the core runs on any thread, and refuses new work from then on:
    /// loads and checks throw `EngineError.closing`, generations end at once as stopped.
    ///
    /// Call it last, just before the process exits (the command line, the Linux app) or a
    /// host unloads the core: llama.cpp's process-wide state is destroyed at exit, and a
    /// decode still running on another thread would crash the process on its way out. It
    /// blocks for at most one token's work.
    public static func endAllWork() {
        CoreWork.shared.endAll()
    }

    /// Runs blocking work (reading a model file) on a thread of its own, off the cooperative
    /// pool, and returns what it gave.
    private static func onThreadOfItsOwn<Value: Sendable>(
        named name: String, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = name
            thread.start()
        }
    }

    /// Loads a model on the calling thread, blocking it (command-line tools and benchmarks;
    /// apps use `load(path:options:)`).
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public init(path: String, options: Options = Options()) throws {
        var params = ilotoki_llm_default_load_params()
        params.context_length = Int32(clamping: options.contextLength)
        params.threads = Int32(clamping: options.threads ?? 0)
        params.batch_size = Int32(clamping: options.batchSize ?? 0)
        params.flash_attention = options.flashAttention.map { $0 ? 1 : 0 } ?? -1
        var error = [CChar](repeating: 0, count: 1024)
        var pointer: OpaquePointer?
        guard let status = CoreWork.shared.perform({ ilotoki_llm_load(path, &params, &pointer, &error, error.count) }) else {
            throw EngineError.closing
        }
        guard status == ILOTOKI_LLM_OK, let pointer else {
            throw EngineError(status: status, buffer: error)
        }
        var cInfo = ilotoki_llm_model_info()
        ilotoki_llm_get_model_info(pointer, &cInfo)
        self.path = path
        self.handle = Handle(pointer: pointer)
        self.info = ModelInfo(
            architecture: String(cString: cInfo.architecture),
            description: String(cString: cInfo.description),
            contextLength: Int(cInfo.context_length),
            trainedContextLength: Int(cInfo.trained_context_length),
            vocabularySize: Int(cInfo.vocabulary_size),
            threads: Int(cInfo.threads),
            modelBytes: cInfo.model_bytes,
            parameters: cInfo.parameters,
            trimmedHead: cInfo.trimmed_head,
            trimmedHeadUnavailable: cInfo.trimmed_head_unavailable.map { String(cString: $0) } ?? "",
            trimmedHeadKernel: cInfo.trimmed_head_kernel.map { String(cString: $0) } ?? "",
            trimmedHeadKernelFromStates: Int(cInfo.trimmed_head_kernel_from_states)
        )
        CoreWork.shared.register(self)
    }

    deinit {
        CoreWork.shared.unregister(ObjectIdentifier(self))
        // Every queued generation holds the engine, so none is running by now. Once the
        // process is ending the model is left to the exit: freeing it then would race the
        // destruction of llama.cpp's process-wide state.
        let handle = handle
        _ = CoreWork.shared.perform { ilotoki_llm_free(handle.pointer) }
    }

    /// Benchmarks: pages the model file out of memory, as a phone's system does to an app in
    /// the background, and returns the advice that did it ("MADV_PAGEOUT", ...). Waits for a
    /// generation running on the handle.
    /// - Throws: `EngineError` where nothing pages it out.
    public func evict() throws -> String {
        var how = [CChar](repeating: 0, count: 256)
        guard let status = CoreWork.shared.perform({ ilotoki_llm_evict(handle.pointer, &how, how.count) }) else { throw EngineError.closing }
        guard status == ILOTOKI_LLM_OK else { throw EngineError(status: status, buffer: how) }
        return String(cString: how)
    }

    /// The fraction of the model file's pages in memory now (`mincore`); 1 where unknown.
    public var residentFraction: Double { CoreWork.shared.perform { ilotoki_llm_resident_fraction(handle.pointer) } ?? 1 }

    /// The llama.cpp version the core was built against.
    public static var backendVersion: String { String(cString: ilotoki_llm_backend_version()) }

    /// Streams the text generated after `prompt`.
    ///
    /// Cancelling the consuming task (or dropping the stream) stops the generation. A new
    /// generation on this engine ends this stream with `CancellationError`.
    /// - Parameters:
    ///   - prompt: the complete prompt.
    ///   - maxTokens: at most this many tokens are generated.
    ///   - stopSequences: the output ends at the first of these; they are not emitted.
    ///   - maxLines: the output ends before it would have more lines than this.
    public func generate(
        prompt: String, maxTokens: Int = 512, stopSequences: [String] = [], maxLines: Int? = nil
    ) -> AsyncThrowingStream<String, Error> {
        let options = GenerationOptions(maxTokens: maxTokens, maxLines: maxLines, stopSequences: stopSequences)
        return stream(prompt: prompt, options: options, piece: { $0 }, finished: { _ in nil })
    }

    /// Streams the pieces of the generated text, then its figures.
    public func events(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<
        GenerationEvent, Error
    > {
        stream(prompt: prompt, options: options, piece: { .piece($0) }, finished: { .finished($0) })
    }

    /// Streams the generations of several prompts decoded together (`ilotoki_llm_start_batch`):
    /// up to `sequences` at once, each prompt's tokens the ones it gives alone, greedy. Each
    /// prompt's last event is `.finished` or `.failed`; stops, cancellation and supersession
    /// work as for one generation (after a stop, every prompt not yet ended finishes as stopped).
    /// - Parameters:
    ///   - maxTokens: one token limit per prompt (at most `options.maxTokens`), or `nil` for
    ///     `options.maxTokens` for all.
    ///   - options: the token limit, line limit and stop sequences for every prompt; the head
    ///     and selection are not used (llama.cpp's head, greedy).
    public func batchEvents(
        prompts: [String], maxTokens: [Int]? = nil, sequences: Int = Engine.defaultSequences,
        options: GenerationOptions = GenerationOptions()
    ) -> AsyncThrowingStream<BatchEvent, Error> {
        let (stream, continuation) = AsyncThrowingStream<BatchEvent, Error>.makeStream()
        enqueue(continuation) { [self] job, ticket in
            runBatch(job, ticket: ticket, prompts: prompts, maxTokens: maxTokens, sequences: sequences, options: options, into: continuation)
        } notStarted: { [self] job in
            concludeBatch(job, continuation) {
                for index in prompts.indices { continuation.yield(.finished(index: index, GenerationStats(finishReason: .stopped))) }
            }
        }
        return stream
    }

    /// Prompts a batch decodes at once unless told otherwise.
    public static let defaultSequences = 8
    /// The most prompts a batch decodes at once.
    public static let maxSequences = Int(ILOTOKI_LLM_MAX_SEQUENCES)

    /// Stops the latest generation, at whatever point it is (queued, evaluating the prompt,
    /// generating); its stream ends normally with the finish reason `stopped`, and no piece
    /// follows. Returns at once: it never waits for the model, so a UI thread may call it.
    public func stop() {
        state.withLock { state in
            guard let latest = state.latest else { return }
            latest.end(.stopped)
            // The running job holds the core's latest ticket, reserved under this same lock,
            // so the request reaches it even before the core's `start` has begun.
            if state.running === latest { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    /// Stops the generation queued and the one running, whichever there are; their streams
    /// end normally as stopped. Returns at once (`waitUntilIdle` waits for the work to end).
    public func stopAll() {
        state.withLock { state in
            state.latest?.end(.stopped)
            state.running?.end(.stopped)
            if state.running != nil { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    /// Whether a generation has reached the core (its prompt checked, tokenized, evaluated,
    /// or its tokens generated), rather than waiting in the queue.
    public var isRunning: Bool { state.withLock { $0.running != nil } }

    /// Figures of the last generation that ran, however it ended (also a cancelled one).
    public var lastStats: GenerationStats? { state.withLock { $0.lastStats } }

    /// Returns once every generation requested so far has ended.
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume() }
        }
    }

    /// Counts the tokens of `text` as a prompt (BOS included); `nil` if it is not valid text.
    public func tokenCount(of text: String) -> Int? {
        guard !text.utf8.contains(0), let count = CoreWork.shared.perform({ ilotoki_llm_count_tokens(handle.pointer, text) }) else {
            return nil
        }
        return count >= 0 ? Int(count) : nil
    }

    // MARK: - Generation

    final class Job: Sendable {
        enum End: UInt8 {
            case none = 0
            /// `stop()`: the stream ends normally.
            case stopped
            /// A newer generation replaced this one: the stream ends with `CancellationError`.
            case superseded
            /// The consumer went away.
            case cancelled
        }

        private let cause = Locked(End.none)

        /// Records why the job ends; the first cause wins.
        func end(_ end: End) {
            cause.withLock { if $0 == .none { $0 = end } }
        }

        var endCause: End { cause.value }
    }

    private func stream<Element: Sendable>(
        prompt: String,
        options: GenerationOptions,
        piece: @escaping @Sendable (String) -> Element,
        finished: @escaping @Sendable (GenerationStats) -> Element?
    ) -> AsyncThrowingStream<Element, Error> {
        let (stream, continuation) = AsyncThrowingStream<Element, Error>.makeStream()
        enqueue(continuation) { [self] job, ticket in
            run(job, ticket: ticket, prompt: prompt, options: options, into: continuation, piece: piece, finished: finished)
        } notStarted: { [self] job in
            conclude(job, continuation, started: false, finished: finished)
        }
        return stream
    }

    /// Makes a job the latest (superseding the one before), and queues `body` to run it on the
    /// engine's queue with a ticket reserved, or `notStarted` when it ended before its turn (or
    /// the process is ending).
    @discardableResult
    func enqueue<Element: Sendable>(
        _ continuation: AsyncThrowingStream<Element, Error>.Continuation,
        body: @escaping @Sendable (Job, UInt64) -> Void,
        notStarted: @escaping @Sendable (Job) -> Void
    ) -> Job {
        let job = Job()
        state.withLock { state in
            if let previous = state.latest { previous.end(.superseded) }
            if let running = state.running {
                running.end(.superseded)
                ilotoki_llm_request_stop(handle.pointer)
            }
            state.latest = job
        }
        continuation.onTermination = { [weak self] termination in
            guard case .cancelled = termination else { return }
            self?.cancel(job)
        }
        queue.async {
            self.runAsJob(job, body: body, notStarted: notStarted)
        }
        return job
    }

    /// Runs wherever the consumer was cancelled (often the main actor): it asks the core to
    /// stop and returns at once; the job's own end cause keeps any late piece from the stream.
    private func cancel(_ job: Job) {
        state.withLock { state in
            job.end(.cancelled)
            if state.running === job { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    private func runAsJob(_ job: Job, body: (Job, UInt64) -> Void, notStarted: (Job) -> Void) {
        guard CoreWork.shared.begin() else {
            // The process is ending (`endAllWork`): nothing starts any more.
            job.end(.stopped)
            state.withLock { state in
                if state.latest === job { state.latest = nil }
            }
            notStarted(job)
            return
        }
        defer { CoreWork.shared.end() }

        // The ticket is reserved as the job becomes the running one, under the lock `stop`
        // takes: from then on a stop reaches this generation, whenever it comes.
        let ticket: UInt64? = state.withLock { state in
            guard job.endCause == .none else { return nil }
            state.running = job
            return ilotoki_llm_reserve_ticket(handle.pointer)
        }
        defer {
            let stats = ticket != nil ? currentStats() : nil
            state.withLock { state in
                if let stats { state.lastStats = stats }
                if state.running === job { state.running = nil }
                if state.latest === job { state.latest = nil }
            }
        }
        guard let ticket else {
            notStarted(job)
            return
        }
        body(job, ticket)
    }

    private func run<Element: Sendable>(
        _ job: Job,
        ticket: UInt64,
        prompt: String,
        options: GenerationOptions,
        into continuation: AsyncThrowingStream<Element, Error>.Continuation,
        piece: (String) -> Element,
        finished: (GenerationStats) -> Element?
    ) {
        guard !prompt.utf8.contains(0) else {
            continuation.finish(throwing: EngineError(kind: .invalidText, message: "The text contains a NUL character."))
            return
        }

        var error = [CChar](repeating: 0, count: 1024)
        let startStatus = withCStringArray(options.stopSequences) { stops in
            var params = startParams(options, ticket: ticket, stops: stops)
            return withCharacterSets(options, in: &params) { params in
                ilotoki_llm_start(handle.pointer, prompt, &params, &error, error.count)
            }
        }
        guard startStatus == ILOTOKI_LLM_OK else {
            // Stopped while the core could not be interrupted (tokenizing): what the user
            // asked for wins over what went wrong meanwhile.
            if job.endCause != .none {
                conclude(job, continuation, started: false, finished: finished)
            } else {
                continuation.finish(throwing: EngineError(status: startStatus, buffer: error))
            }
            return
        }

        while true {
            var text: UnsafePointer<CChar>?
            var length = 0
            let status = ilotoki_llm_next(handle.pointer, &text, &length, &error, error.count)
            // A piece made while a stop was on its way is dropped: nothing follows a stop.
            if job.endCause != .none { break }
            switch status {
            case ILOTOKI_LLM_OK:
                let bytes = UnsafeRawBufferPointer(start: text, count: length)
                continuation.yield(piece(String(decoding: bytes, as: UTF8.self)))
            case ILOTOKI_LLM_DONE:
                conclude(job, continuation, started: true, finished: finished)
                return
            default:
                continuation.finish(throwing: EngineError(status: status, buffer: error))
                return
            }
        }
        conclude(job, continuation, started: true, finished: finished)
    }

    /// Runs `body` with `params` pointing at the trimmed head's character sets of `options`
    /// (valid only inside `body`).
    func withCharacterSets<Result>(
        _ options: GenerationOptions, in params: inout ilotoki_llm_start_params, _ body: (inout ilotoki_llm_start_params) -> Result
    ) -> Result {
        let kept = options.outputCharacters.map { ilotoki_llm_char_range(first: $0.lowerBound, last: $0.upperBound) }
        let wider = options.widerCharacters.map { ilotoki_llm_char_range(first: $0.lowerBound, last: $0.upperBound) }
        return kept.withUnsafeBufferPointer { kept in
            wider.withUnsafeBufferPointer { wider in
                params.output_characters = kept.baseAddress
                params.output_character_count = kept.count
                params.wider_characters = wider.baseAddress
                params.wider_character_count = wider.count
                return body(&params)
            }
        }
    }

    func startParams(
        _ options: GenerationOptions, ticket: UInt64, stops: UnsafeBufferPointer<UnsafePointer<CChar>?>
    ) -> ilotoki_llm_start_params {
        var params = ilotoki_llm_default_start_params()
        params.max_tokens = Int32(clamping: options.maxTokens)
        params.max_lines = Int32(clamping: options.maxLines ?? 0)
        params.stop_sequences = stops.baseAddress
        params.stop_sequence_count = stops.count
        params.selection = options.selection.cValue
        params.logits_for_all_prompt_tokens = options.logitsForAllPromptTokens
        params.ticket = ticket
        params.head = options.head.cValue
        params.restore_residency = options.restoreResidency
        params.reuse_prefix = options.reusePrefix
        return params
    }

    private func runBatch(
        _ job: Job, ticket: UInt64, prompts: [String], maxTokens: [Int]?, sequences: Int, options: GenerationOptions,
        into continuation: AsyncThrowingStream<BatchEvent, Error>.Continuation
    ) {
        var error = [CChar](repeating: 0, count: 1024)
        // A prompt with a NUL cannot reach the core whole: it goes as no prompt, which the core
        // reports as not text, and the message here says why.
        let limits = (maxTokens ?? []).map { Int32(clamping: $0) }
        let startStatus = withCStringArray(options.stopSequences) { stops in
            var params = startParams(options, ticket: ticket, stops: stops)
            return withCharacterSets(options, in: &params) { params in
                withCStringArray(prompts.map { $0.utf8.contains(0) ? nil : $0 }) { texts in
                    limits.withUnsafeBufferPointer { limits in
                        ilotoki_llm_start_batch(
                            handle.pointer, texts.baseAddress, texts.count, maxTokens == nil ? nil : limits.baseAddress,
                            Int32(clamping: sequences), &params, &error, error.count)
                    }
                }
            }
        }
        var ended = Set<Int>()
        func endTheRest(_ reason: FinishReason) {
            for index in prompts.indices where !ended.contains(index) {
                var stats = sequenceStats(index)
                if stats.finishReason != .stopped { stats.finishReason = reason }
                continuation.yield(.finished(index: index, stats))
            }
        }
        guard startStatus == ILOTOKI_LLM_OK else {
            if job.endCause != .none {
                concludeBatch(job, continuation) { endTheRest(.stopped) }
            } else {
                continuation.finish(throwing: EngineError(status: startStatus, buffer: error))
            }
            return
        }
        while true {
            var index: Int32 = -1
            var text: UnsafePointer<CChar>?
            var length = 0
            let status = ilotoki_llm_next_batch(handle.pointer, &index, &text, &length, &error, error.count)
            if job.endCause != .none { break }
            switch status {
            case ILOTOKI_LLM_OK:
                let bytes = UnsafeRawBufferPointer(start: text, count: length)
                continuation.yield(.piece(index: Int(index), String(decoding: bytes, as: UTF8.self)))
            case ILOTOKI_LLM_SEQUENCE_DONE:
                let at = Int(index)
                ended.insert(at)
                var message = [CChar](repeating: 0, count: 1024)
                let failure = ilotoki_llm_sequence_error(handle.pointer, index, &message, message.count)
                if failure == ILOTOKI_LLM_OK {
                    continuation.yield(.finished(index: at, sequenceStats(at)))
                } else if prompts[at].utf8.contains(0) {
                    continuation.yield(.failed(index: at, EngineError(kind: .invalidText, message: "The text contains a NUL character.")))
                } else {
                    continuation.yield(.failed(index: at, EngineError(status: failure, buffer: message)))
                }
            case ILOTOKI_LLM_DONE:
                endTheRest(.stopped)
                continuation.finish()
                return
            default:
                continuation.finish(throwing: EngineError(status: status, buffer: error))
                return
            }
        }
        concludeBatch(job, continuation) { endTheRest(.stopped) }
    }

    /// Ends a batch's stream as the job's end cause asks (`finishTheRest` reports the prompts
    /// not yet ended when it ends normally).
    func concludeBatch(
        _ job: Job, _ continuation: AsyncThrowingStream<BatchEvent, Error>.Continuation, finishTheRest: () -> Void
    ) {
        switch job.endCause {
        case .superseded: continuation.finish(throwing: CancellationError())
        case .cancelled: continuation.finish()
        case .none, .stopped:
            finishTheRest()
            continuation.finish()
        }
    }

    /// Ends the stream as the job's end cause asks.
    private func conclude<Element: Sendable>(
        _ job: Job,
        _ continuation: AsyncThrowingStream<Element, Error>.Continuation,
        started: Bool,
        finished: (GenerationStats) -> Element?
    ) {
        switch job.endCause {
        case .superseded:
            continuation.finish(throwing: CancellationError())
        case .cancelled:
            continuation.finish()
        case .none, .stopped:
            // A job stopped before it started has no figures of its own.
            var stats = started ? currentStats() : GenerationStats(finishReason: .stopped)
            if job.endCause == .stopped { stats.finishReason = .stopped }
            if let event = finished(stats) { continuation.yield(event) }
            continuation.finish()
        }
    }

    private func currentStats() -> GenerationStats {
        var cStats = ilotoki_llm_stats()
        ilotoki_llm_get_stats(handle.pointer, &cStats)
        let count = ilotoki_llm_generated_tokens(handle.pointer, nil, 0)
        var tokens = [Int32](repeating: 0, count: Int(max(count, 0)))
        if count > 0 { _ = ilotoki_llm_generated_tokens(handle.pointer, &tokens, count) }
        return Self.stats(cStats, tokens: tokens)
    }

    /// The figures of one prompt of the current batch.
    func sequenceStats(_ index: Int) -> GenerationStats {
        var cStats = ilotoki_llm_stats()
        guard ilotoki_llm_get_sequence_stats(handle.pointer, Int32(index), &cStats) == ILOTOKI_LLM_OK else {
            return GenerationStats(finishReason: .stopped)
        }
        let count = ilotoki_llm_sequence_tokens(handle.pointer, Int32(index), nil, 0)
        var tokens = [Int32](repeating: 0, count: Int(max(count, 0)))
        if count > 0 { _ = ilotoki_llm_sequence_tokens(handle.pointer, Int32(index), &tokens, count) }
        return Self.stats(cStats, tokens: tokens)
    }

    /// The batch's totals so far, or the last single generation's figures.
    public var currentTotals: GenerationStats { currentStats() }

    private static func stats(_ cStats: ilotoki_llm_stats, tokens: [Int32]) -> GenerationStats {
        GenerationStats(
            promptTokens: Int(cStats.prompt_tokens),
            generatedTokens: Int(cStats.generated_tokens),
            prefillMilliseconds: cStats.prefill_ms,
            decodeMilliseconds: cStats.decode_ms,
            decodedTokens: Int(cStats.decoded_tokens),
            selectionMilliseconds: cStats.selection_ms,
            firstPieceMilliseconds: cStats.first_piece_ms,
            majorPageFaults: Int(cStats.major_page_faults),
            finishReason: FinishReason(cStats.finish_reason),
            tokens: tokens,
            head: HeadStats(
                rows: Int(cStats.head_rows), checks: Int(cStats.head_checks), rollbacks: Int(cStats.head_rollbacks),
                fullHeadSteps: Int(cStats.head_full_steps), fellBack: cStats.head_fell_back, widened: cStats.head_widened),
            residentFraction: cStats.resident_fraction, restoredBytes: Int(cStats.restored_bytes), restoreMilliseconds: cStats.restore_ms,
            restorePageFaults: Int(cStats.restore_page_faults), contextLength: Int(cStats.context_length),
            reusedPromptTokens: Int(cStats.reused_prompt_tokens), prefixCacheBytes: Int(cStats.prefix_cache_bytes)
        )
    }
}

/// Calls `body` with NUL-terminated copies of `strings` that live for the call.
func withCStringArray<Result>(
    _ strings: [String?], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) -> Result
) -> Result {
    let copies = strings.map { $0.flatMap { strdup($0) } }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer(body)
}

extension Engine {
    /// The bytes of `tokens` as llama.cpp detokenizes them in one go (special tokens left
    /// out). Tests compare this with the streamed pieces.
    public func detokenize(_ tokens: [Int32]) -> [UInt8] {
        CoreWork.shared.perform {
            let needed = tokens.withUnsafeBufferPointer { buffer in
                ilotoki_llm_detokenize(handle.pointer, buffer.baseAddress, Int32(buffer.count), nil, 0)
            }
            guard needed > 0 else { return [] }
            var bytes = [CChar](repeating: 0, count: Int(needed))
            let written = tokens.withUnsafeBufferPointer { buffer in
                ilotoki_llm_detokenize(handle.pointer, buffer.baseAddress, Int32(buffer.count), &bytes, needed)
            }
            return bytes.prefix(Int(max(written, 0))).map { UInt8(bitPattern: $0) }
        } ?? []
    }
}
