import IloTokiCore
import IloTokiLLM

/// Loads models with llama.cpp (the inference core), off the cooperative thread pool: what
/// every front end passes to `TranslatorModel` at start-up.
public struct LiveEngineLoader: EngineLoading {
    public var options: Engine.Options
    /// The output head translations use.
    public var head: OutputHead

    public init(options: Engine.Options = Engine.Options(), head: OutputHead = .trimmed) {
        self.options = options
        self.head = head
    }

    public func load(path: String) async throws -> any TranslationEngine {
        try await LLMTranslationEngine.load(path: path, options: options, head: head)
    }

    public func check(path: String) async throws {
        try await Engine.check(path: path)
    }

    public var backendDescription: String { "llama.cpp \(Engine.backendVersion)" }

    /// Stops every translation in the process and waits until llama.cpp does no more work on
    /// any thread; nothing loads or translates afterwards. A front end calls it last, just
    /// before its process exits (see `Engine.endAllWork`).
    public static func endAllWork() {
        Engine.endAllWork()
    }
}
