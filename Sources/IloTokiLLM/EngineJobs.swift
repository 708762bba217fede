import CIloTokiLLM
import Foundation
import IloTokiLocking

/// The job queue: one generation at a time on the engine's queue, a new one superseding the
/// one before, stops and cancellation that reach it wherever it is, and one generation's run.
extension Engine {
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

    func stream<Element: Sendable>(
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
    func cancel(_ job: Job) {
        state.withLock { state in
            job.end(.cancelled)
            if state.running === job { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    func runAsJob(_ job: Job, body: (Job, UInt64) -> Void, notStarted: (Job) -> Void) {
        guard LLMCalls.shared.begin() else {
            // The process is ending (`endAllWork`): nothing starts any more.
            job.end(.stopped)
            state.withLock { state in
                if state.latest === job { state.latest = nil }
            }
            notStarted(job)
            return
        }
        defer { LLMCalls.shared.end() }

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

    func run<Element: Sendable>(
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

    /// Ends the stream as the job's end cause asks.
    func conclude<Element: Sendable>(
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
