import IloTokiLLM

/// Loads a model file into a translation engine.
public protocol EngineLoading: Sendable {
    func load(path: String) async throws -> any TranslationEngine
}

/// Loads models with llama.cpp, off the cooperative thread pool.
public struct LiveEngineLoader: EngineLoading {
    public var options: Engine.Options

    public init(options: Engine.Options = Engine.Options()) {
        self.options = options
    }

    public func load(path: String) async throws -> any TranslationEngine {
        try await LLMTranslationEngine.load(path: path, options: options)
    }
}
