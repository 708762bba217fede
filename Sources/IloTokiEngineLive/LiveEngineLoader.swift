import IloTokiCore
import IloTokiLLM

/// Loads models with llama.cpp (the inference core), off the cooperative thread pool: what
/// every front end passes to `TranslatorModel` at start-up.
public struct LiveEngineLoader: EngineLoading {
    public var options: Engine.Options

    public init(options: Engine.Options = Engine.Options()) {
        self.options = options
    }

    public func load(path: String) async throws -> any TranslationEngine {
        try await LLMTranslationEngine.load(path: path, options: options)
    }

    public func check(path: String) async throws {
        try await Engine.check(path: path)
    }

    public var backendDescription: String { "llama.cpp \(Engine.backendVersion)" }
}
