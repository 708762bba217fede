/// Facts about a loaded model.
public struct ModelInfo: Sendable, Equatable {
    /// The GGUF architecture, e.g. "gemma3".
    public var architecture: String
    /// A one-line description, e.g. "gemma3 270M Q4_K - Medium".
    public var description: String
    /// Tokens the context holds (prompt and translation together).
    public var contextLength: Int
    /// The context length the model was trained with.
    public var trainedContextLength: Int
    /// Tokens in the vocabulary.
    public var vocabularySize: Int
    /// Threads used for decoding.
    public var threads: Int
    /// Size of the weights in bytes.
    public var modelBytes: UInt64
    /// Number of parameters.
    public var parameters: UInt64
    /// Whether generations can use the trimmed output head; when not, why (otherwise empty).
    public var trimmedHead: Bool = false
    public var trimmedHeadUnavailable: String = ""
    /// The kernel that checks the trimmed head's choices ("avx512-vnni", "avx2",
    /// "neon-dotprod", or "vec_dot" for ggml's own); empty without a trimmed head.
    public var trimmedHeadKernel: String = ""
    /// The fewest states a check hands to that kernel, measured at load (fewer go to ggml's
    /// vec_dot); 0 with "vec_dot" or no trimmed head.
    public var trimmedHeadKernelFromStates: Int = 0
    /// Why and how the trimmed head's checks read the excluded rows from the file instead of
    /// through the mapping (the model does not stay in memory); empty where they do not.
    public var trimmedHeadCheckStreams: String = ""
}
