import IloTokiCore
import IloTokiLLM

/// The translation engine over the llama.cpp core: Core's seam, in Core's own types.
public final class LLMTranslationEngine: TranslationEngine {
    public let engine: Engine
    /// The output head translations use (the trimmed one unless a benchmark or a comparison
    /// asks for llama.cpp's own).
    public let head: OutputHead

    public init(engine: Engine, head: OutputHead = .trimmed) {
        self.engine = engine
        self.head = head
    }

    /// Loads a model file off the cooperative thread pool.
    public static func load(
        path: String, options: Engine.Options = Engine.Options(), head: OutputHead = .trimmed
    ) async throws -> LLMTranslationEngine {
        LLMTranslationEngine(engine: try await Engine.load(path: path, options: options), head: head)
    }

    public var contextLength: Int { engine.info.contextLength }

    public func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<CompletionEvent, Error> {
        let events = engine.events(
            prompt: prompt.prompt,
            options: GenerationOptions(
                maxTokens: maxTokens, maxLines: prompt.maxLines, stopSequences: prompt.stopSequences, head: head,
                targetLanguage: prompt.targetLanguage.code))
        return AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await event in events {
                        switch event {
                        case .piece(let piece): continuation.yield(.piece(piece))
                        case .finished(let stats): continuation.yield(.finished(CompletionStats(stats)))
                        }
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func tokenCount(of text: String) -> Int? { engine.tokenCount(of: text) }

    public func stopAndWait() async {
        engine.stopAll()
        await engine.waitUntilIdle()
    }
}

extension CompletionStats {
    /// The core's figures, in Core's terms.
    public init(_ stats: GenerationStats) {
        self.init(
            promptTokens: stats.promptTokens, generatedTokens: stats.generatedTokens, prefillMilliseconds: stats.prefillMilliseconds,
            decodeMilliseconds: stats.decodeMilliseconds, decodedTokens: stats.decodedTokens,
            firstPieceMilliseconds: stats.firstPieceMilliseconds, majorPageFaults: stats.majorPageFaults, end: CompletionEnd(stats.finishReason))
    }
}

extension CompletionEnd {
    init(_ reason: FinishReason) {
        switch reason {
        case .endOfGeneration: self = .endOfGeneration
        case .maxTokens: self = .maxTokens
        case .stopSequence: self = .stopSequence
        case .lineLimit: self = .lineLimit
        case .stopped: self = .stopped
        case .error: self = .error
        }
    }
}
