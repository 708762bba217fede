import CIloTokiLLM
import Foundation

/// The core's figures of a generation or of one prompt of a batch, in this module's terms.
extension Engine {
    func currentStats() -> GenerationStats {
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
    /// How the prompt at `core` of the current batch ended, reported under `index`: its
    /// figures, or what went wrong.
    func sequenceEnd(_ core: Int32, as index: Int) -> BatchEvent {
        var message = [CChar](repeating: 0, count: 1024)
        let failure = ilotoki_llm_sequence_error(handle.pointer, core, &message, message.count)
        guard failure == ILOTOKI_LLM_OK else { return .failed(index: index, EngineError(status: failure, buffer: message)) }
        return .finished(index: index, sequenceStats(Int(core)))
    }

    public var currentTotals: GenerationStats { currentStats() }

    static func stats(_ cStats: ilotoki_llm_stats, tokens: [Int32]) -> GenerationStats {
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
                fullHeadSteps: Int(cStats.head_full_steps), exactChoices: Int(cStats.head_exact_choices), fellBack: cStats.head_fell_back,
                widened: cStats.head_widened, sketchedChecks: Int(cStats.head_sketched_checks),
                rowsReadExactly: Int(cStats.head_rows_read_exactly)),
            residentFraction: cStats.resident_fraction, restoredBytes: Int(cStats.restored_bytes), restoreMilliseconds: cStats.restore_ms,
            restorePageFaults: Int(cStats.restore_page_faults), contextLength: Int(cStats.context_length),
            reusedPromptTokens: Int(cStats.reused_prompt_tokens), prefixCacheBytes: Int(cStats.prefix_cache_bytes),
            sharedSteps: Int(cStats.shared_steps)
        )
    }
}
