import IloTokiLLM

/// What translating needs from a loaded model. The live implementation runs llama.cpp
/// (`LLMTranslationEngine`); tests use a scripted one.
public protocol TranslationEngine: AnyObject, Sendable {
    /// Tokens the context holds (prompt and translation together).
    var contextLength: Int { get }

    /// Streams the completion of `prompt`: pieces, then the figures. Cancelling the consuming
    /// task stops the generation; a new call cancels the one before.
    func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<GenerationEvent, Error>

    /// Tokens in `text` as a prompt; `nil` when the text cannot be tokenized.
    func tokenCount(of text: String) -> Int?
}

/// The translation engine over the llama.cpp core.
public final class LLMTranslationEngine: TranslationEngine {
    public let engine: Engine

    public init(engine: Engine) {
        self.engine = engine
    }

    /// Loads a model file off the cooperative thread pool.
    public static func load(path: String, options: Engine.Options = Engine.Options()) async throws -> LLMTranslationEngine {
        LLMTranslationEngine(engine: try await Engine.load(path: path, options: options))
    }

    public var contextLength: Int { engine.info.contextLength }

    public func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<GenerationEvent, Error> {
        engine.events(
            prompt: prompt.prompt,
            options: GenerationOptions(maxTokens: maxTokens, maxLines: prompt.maxLines, stopSequences: prompt.stopSequences)
        )
    }

    public func tokenCount(of text: String) -> Int? { engine.tokenCount(of: text) }
}
