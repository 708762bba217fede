import CIloTokiLLM

/// Why a generation ended.
public enum FinishReason: String, Sendable, Equatable, Codable {
    /// The model produced its end-of-generation token.
    case endOfGeneration
    /// The token limit (or the end of the context) was reached.
    case maxTokens
    /// The output reached a stop sequence.
    case stopSequence
    /// The output would have had more lines than allowed.
    case lineLimit
    /// The generation was stopped or cancelled.
    case stopped
    /// The generation failed (the error says why).
    case error
    /// The output had become the same few tokens over and over (a model caught in a loop).
    case repetition

    init(_ reason: ilotoki_llm_finish_reason) {
        switch reason {
        case ILOTOKI_LLM_FINISH_END_OF_GENERATION: self = .endOfGeneration
        case ILOTOKI_LLM_FINISH_MAX_TOKENS: self = .maxTokens
        case ILOTOKI_LLM_FINISH_STOP_SEQUENCE: self = .stopSequence
        case ILOTOKI_LLM_FINISH_LINE_LIMIT: self = .lineLimit
        case ILOTOKI_LLM_FINISH_ERROR: self = .error
        case ILOTOKI_LLM_FINISH_REPETITION: self = .repetition
        default: self = .stopped
        }
    }
}

/// Figures for one generation.
public struct GenerationStats: Sendable, Equatable {
    /// Tokens in the prompt, BOS included.
    public var promptTokens: Int
    /// Tokens generated (including an end-of-generation token).
    public var generatedTokens: Int
    /// Time spent evaluating the prompt.
    public var prefillMilliseconds: Double
    /// Time spent generating after the prompt.
    public var decodeMilliseconds: Double
    /// Tokens evaluated one at a time after the prompt: the generated tokens but the last, and
    /// those the trimmed head evaluated again after a check took steps back.
    public var decodedTokens: Int
    /// Part of `decodeMilliseconds` spent choosing tokens from the logits.
    public var selectionMilliseconds: Double
    /// Time from the start to the first piece of text; 0 when there was none.
    public var firstPieceMilliseconds: Double
    /// Major page faults of the process during the generation: the model's pages that had
    /// to be read back from storage. Throughput collapses when this grows.
    public var majorPageFaults: Int
    /// Why the generation ended.
    public var finishReason: FinishReason
    /// The generated token ids, in order.
    public var tokens: [Int32]
    /// What the output head did.
    public var head: HeadStats
    /// The fraction of the model file in memory when the generation started (1 where unknown).
    public var residentFraction: Double
    /// Bytes of the model file read back before the prompt was evaluated.
    public var restoredBytes: Int
    /// Time of the residency check and restore, before the prefill.
    public var restoreMilliseconds: Double
    /// The part of `majorPageFaults` that came during the residency check and restore; the
    /// rest came while the prompt was evaluated and the output decoded.
    public var restorePageFaults: Int
    /// Tokens the context held: sized to the translation (prompt and output limit, rounded up
    /// to 256), larger only when an earlier translation needed more.
    public var contextLength: Int
    /// Prompt tokens whose cells were copied from the cache of prompt beginnings instead of
    /// evaluated (`GenerationOptions.reusePrefix`).
    public var reusedPromptTokens: Int
    /// The memory that cache held after this prompt, in bytes.
    public var prefixCacheBytes: Int
    /// In a batch: the decoding steps this prompt took beside other prompts (their whole time
    /// counts in `decodeMilliseconds`, so a prompt with any measures no head on its own).
    public var sharedSteps: Int

    public init(
        promptTokens: Int = 0, generatedTokens: Int = 0, prefillMilliseconds: Double = 0,
        decodeMilliseconds: Double = 0, decodedTokens: Int = 0, selectionMilliseconds: Double = 0,
        firstPieceMilliseconds: Double = 0, majorPageFaults: Int = 0, finishReason: FinishReason = .stopped,
        tokens: [Int32] = [], head: HeadStats = HeadStats(), residentFraction: Double = 1, restoredBytes: Int = 0,
        restoreMilliseconds: Double = 0, restorePageFaults: Int = 0, contextLength: Int = 0, reusedPromptTokens: Int = 0,
        prefixCacheBytes: Int = 0, sharedSteps: Int = 0
    ) {
        self.head = head
        self.sharedSteps = sharedSteps
        self.reusedPromptTokens = reusedPromptTokens
        self.prefixCacheBytes = prefixCacheBytes
        self.restorePageFaults = restorePageFaults
        self.contextLength = contextLength
        self.residentFraction = residentFraction
        self.restoredBytes = restoredBytes
        self.restoreMilliseconds = restoreMilliseconds
        self.promptTokens = promptTokens
        self.generatedTokens = generatedTokens
        self.prefillMilliseconds = prefillMilliseconds
        self.decodeMilliseconds = decodeMilliseconds
        self.decodedTokens = decodedTokens
        self.selectionMilliseconds = selectionMilliseconds
        self.firstPieceMilliseconds = firstPieceMilliseconds
        self.majorPageFaults = majorPageFaults
        self.finishReason = finishReason
        self.tokens = tokens
    }

    /// Prompt tokens evaluated per second.
    public var prefillTokensPerSecond: Double {
        prefillMilliseconds > 0 ? Double(promptTokens) * 1000 / prefillMilliseconds : 0
    }

    /// The steps that gave the answer its tokens: the generated tokens but the first (which
    /// the prompt's evaluation chose). Where the trimmed head took steps again, fewer than
    /// `decodedTokens`, and the measure of what a person waits for.
    public var answerSteps: Int { max(generatedTokens - 1, 0) }

    /// Answer tokens per second after the prompt: what llama-bench's `tg` measures for a
    /// decoder that never steps back; steps the trimmed head took again count as time only.
    public var decodeTokensPerSecond: Double {
        decodeMilliseconds > 0 ? Double(answerSteps) * 1000 / decodeMilliseconds : 0
    }
}

/// What the output head did in one generation.
public struct HeadStats: Sendable, Equatable {
    /// Vocabulary rows computed per token: the kept rows, or the whole vocabulary.
    public var rows: Int
    /// Checks of pending tokens against the rows left out.
    public var checks: Int
    /// Checks that found a token another row would have beaten, and rolled back.
    public var rollbacks: Int
    /// Steps taken again with the full head (after a rollback its rows' exact values did not
    /// decide, or where no kept row won).
    public var fullHeadSteps: Int
    /// Rollbacks decided by the exact values of the few rows they were about, without a step
    /// of the full head.
    public var exactChoices: Int
    /// The generation went on with the full head after repeated rollbacks.
    public var fellBack: Bool
    /// A check found a winner outside the target language's rows but within the wider set's
    /// (the app's languages together), and the generation went on with those as its kept rows.
    public var widened: Bool
    /// Checks the sketch of the rows left out served (where checks stream from the file): it
    /// ruled most rows out, and only the rest were read.
    public var sketchedChecks: Int
    /// The rows those checks read exactly.
    public var rowsReadExactly: Int

    public init(
        rows: Int = 0, checks: Int = 0, rollbacks: Int = 0, fullHeadSteps: Int = 0, exactChoices: Int = 0, fellBack: Bool = false,
        widened: Bool = false, sketchedChecks: Int = 0, rowsReadExactly: Int = 0
    ) {
        self.rows = rows
        self.checks = checks
        self.rollbacks = rollbacks
        self.fullHeadSteps = fullHeadSteps
        self.exactChoices = exactChoices
        self.fellBack = fellBack
        self.widened = widened
        self.sketchedChecks = sketchedChecks
        self.rowsReadExactly = rowsReadExactly
    }
}

/// What a batch's stream carries (`Engine.batchEvents`), each tagged with its prompt's index.
public enum BatchEvent: Sendable {
    /// The next piece of the prompt at `index`.
    case piece(index: Int, String)
    /// The prompt at `index` ended; its last event.
    case finished(index: Int, GenerationStats)
    /// The prompt at `index` could not be started (not text, too long); its last event.
    case failed(index: Int, EngineError)
}

/// What a generation stream carries.
public enum GenerationEvent: Sendable, Equatable {
    /// The next piece of text: always complete UTF-8, never part of a stop sequence.
    case piece(String)
    /// The generation ended; this is the last event.
    case finished(GenerationStats)
}
