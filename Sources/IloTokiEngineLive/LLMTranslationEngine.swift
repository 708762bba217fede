import IloTokiCore
import IloTokiLLM

/// The translation engine over the llama.cpp core: Core's seam, in Core's own types.
public final class LLMTranslationEngine: TranslationEngine {
    public let engine: Engine
    /// The output head each translation uses: fixed, or measured on this machine.
    let heads: HeadChooser

    init(engine: Engine, heads: HeadChooser) {
        self.engine = engine
        self.heads = heads
    }

    /// An engine whose translations all use `head`.
    public convenience init(engine: Engine, head: OutputHead) {
        self.init(
            engine: engine, heads: HeadChooser(policy: head == .full ? .full : .trimmed, info: engine.info, path: "", store: nil))
    }

    /// Where the choice of the output head stands: the head chosen (`nil` while it is being
    /// measured) and the figures behind it.
    public var headCalibration: HeadCalibration { heads.state }

    public var contextLength: Int { engine.info.contextLength }

    public func complete(_ prompt: TranslationPrompt, maxTokens: Int) -> AsyncThrowingStream<CompletionEvent, Error> {
        let heads = heads
        let head = heads.next
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
                        case .finished(let stats):
                            if stats.finishReason != .stopped, stats.finishReason != .error { heads.record(head, stats: stats) }
                            continuation.yield(.finished(CompletionStats(stats)))
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
