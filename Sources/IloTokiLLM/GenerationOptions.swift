import CIloTokiLLM

/// How the next token is chosen.
public enum TokenSelection: Sendable, Equatable {
    /// Greedy argmax over the logits: what the product uses. Translation has one right
    /// answer per input, and the same sentence must translate the same way every time.
    case argmax
    /// llama.cpp's own greedy sampler, for comparing against `argmax` in tests and benchmarks.
    case llamaGreedy
    /// llama.cpp's top-k 40 / top-p 0.95 / temperature 0.8 chain, for benchmarks only.
    case llamaSamplingChain

    var cValue: ilotoki_llm_selection {
        switch self {
        case .argmax: ILOTOKI_LLM_SELECT_ARGMAX
        case .llamaGreedy: ILOTOKI_LLM_SELECT_LLAMA_GREEDY
        case .llamaSamplingChain: ILOTOKI_LLM_SELECT_LLAMA_SAMPLING_CHAIN
        }
    }
}

/// How the output projection onto the vocabulary is computed (see `ilotoki_llm_head`).
public enum OutputHead: String, Codable, Sendable, Equatable, CaseIterable {
    /// Only the rows the target language can use, checked against the others every few
    /// tokens and rolled back where another row would win: the full head's output, faster.
    /// Models whose head cannot be trimmed use the full head.
    case trimmed
    /// llama.cpp's own head over the whole vocabulary, for every token.
    case full

    var cValue: ilotoki_llm_head {
        switch self {
        case .trimmed: ILOTOKI_LLM_HEAD_TRIMMED
        case .full: ILOTOKI_LLM_HEAD_FULL
        }
    }
}

/// What one generation may produce and when it ends.
public struct GenerationOptions: Sendable, Equatable {
    /// At most this many tokens are generated.
    public var maxTokens: Int
    /// The output ends before it would have more lines than this; `nil` means no limit.
    public var maxLines: Int?
    /// The output ends when it reaches one of these; they are never emitted.
    public var stopSequences: [String]
    /// How tokens are chosen.
    public var selection: TokenSelection
    /// Benchmarks only: compute logits for every prompt token, not just the last.
    public var logitsForAllPromptTokens: Bool
    /// The output head.
    public var head: OutputHead
    /// The characters the output is written in (code point ranges), which pick the trimmed
    /// head's rows: the tokens made of them. Empty: llama.cpp's head. The app's languages'
    /// table (IloTokiCore's `Language.outputCharacters`) says what each language is written in.
    public var outputCharacters: [ClosedRange<UInt32>]
    /// What the trimmed head widens to when the output leaves `outputCharacters` for these
    /// (the app's languages together); empty: no widening.
    public var widerCharacters: [ClosedRange<UInt32>]
    /// Read the model's pages the system took back in one pass before decoding (below 98 %
    /// resident); `false` lets them fault back during decode (benchmarks compare the two).
    public var restoreResidency: Bool
    /// Start from the cached cells of a prompt beginning an earlier prompt shared (the format's
    /// fixed words), instead of evaluating them again: the same tokens, a shorter prefill.
    /// `false` evaluates every prompt whole (benchmarks compare the two).
    public var reusePrefix: Bool

    public init(
        maxTokens: Int = 512,
        maxLines: Int? = nil,
        stopSequences: [String] = [],
        selection: TokenSelection = .argmax,
        logitsForAllPromptTokens: Bool = false,
        head: OutputHead = .trimmed,
        outputCharacters: [ClosedRange<UInt32>] = [],
        widerCharacters: [ClosedRange<UInt32>] = [],
        restoreResidency: Bool = true,
        reusePrefix: Bool = true
    ) {
        self.restoreResidency = restoreResidency
        self.reusePrefix = reusePrefix
        self.maxTokens = maxTokens
        self.maxLines = maxLines
        self.stopSequences = stopSequences
        self.selection = selection
        self.logitsForAllPromptTokens = logitsForAllPromptTokens
        self.head = head
        self.outputCharacters = outputCharacters
        self.widerCharacters = widerCharacters
    }
}
