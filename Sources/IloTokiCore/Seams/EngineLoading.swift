import IloTokiLLM

/// Loads a model file into a translation engine.
public protocol EngineLoading: Sendable {
    func load(path: String) async throws -> any TranslationEngine

    /// Checks that a file is a model that can translate (its architecture is supported, its
    /// vocabulary reads) before it is added to the model list; quicker than loading it.
    /// - Throws: an error that names the file and says what is wrong with it.
    func check(path: String) async throws
}

extension EngineLoading {
    /// Loads the file and lets it go: for loaders without a quicker check.
    public func check(path: String) async throws {
        _ = try await load(path: path)
    }
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

    public func check(path: String) async throws {
        try await Engine.check(path: path)
    }
}
