import CIloTokiLLM
import Foundation

/// Several prompts decoded together: the stream of a batch and its run on the engine's queue.
extension Engine {
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
            runBatch(
                job, ticket: ticket, prompts: prompts, maxTokens: maxTokens, sequences: sequences, options: options, into: continuation)
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

    func runBatch(
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
                let end = sequenceEnd(index, as: at)
                if case .failed = end, prompts[at].utf8.contains(0) {
                    continuation.yield(.failed(index: at, EngineError(kind: .invalidText, message: "The text contains a NUL character.")))
                } else {
                    continuation.yield(end)
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
}
