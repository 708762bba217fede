import Foundation

/// A translation as it streams in.
public struct TranslationProgress: Equatable, Sendable {
    /// The whole translation so far, lines and blank lines in place.
    public var text: String
    /// What this update added at the end of `text` (for output that can only append).
    public var addition: String
    /// Chunks finished, out of `chunkCount`.
    public var finishedChunks: Int
    public var chunkCount: Int
    /// Figures summed over the finished chunks.
    public var stats: TranslationStats
    /// Whether this is the last update: the translation is complete.
    public var isFinal: Bool
}

/// Figures for one translation, summed over its chunks.
public struct TranslationStats: Equatable, Sendable, Codable {
    public var promptTokens = 0
    public var generatedTokens = 0
    public var prefillMilliseconds = 0.0
    public var decodeMilliseconds = 0.0
    public var decodedTokens = 0
    public var firstPieceMilliseconds = 0.0
    public var majorPageFaults = 0

    public init() {}

    public var decodeTokensPerSecond: Double {
        decodeMilliseconds > 0 ? Double(decodedTokens) * 1000 / decodeMilliseconds : 0
    }

    mutating func add(_ stats: CompletionStats) {
        if generatedTokens == 0, promptTokens == 0 { firstPieceMilliseconds = stats.firstPieceMilliseconds }
        promptTokens += stats.promptTokens
        generatedTokens += stats.generatedTokens
        prefillMilliseconds += stats.prefillMilliseconds
        decodeMilliseconds += stats.decodeMilliseconds
        decodedTokens += stats.decodedTokens
        majorPageFaults += stats.majorPageFaults
    }
}

/// Why a text cannot be translated.
public enum TranslationError: Error, LocalizedError, Equatable, Sendable {
    /// Nothing but whitespace.
    case emptyText
    /// More tokens than the model's context holds.
    case textTooLong(tokens: Int, limit: Int)
    /// The text contains something that is not text (a NUL character).
    case invalidText

    public var errorDescription: String? {
        switch self {
        case .emptyText:
            "There is nothing to translate."
        case .textTooLong(let tokens, let limit):
            "The text is too long to translate at once: it has \(tokens) tokens and the model's context holds \(limit). Translate it in parts."
        case .invalidText:
            "The text contains characters that cannot be translated (a NUL character)."
        }
    }
}

/// Translates text with a loaded model: plans the chunks (line by line, long lines split at
/// sentence ends), builds each prompt in the model's own format, and streams the assembled
/// translation. Every front end translates through this.
public struct Translator: Sendable {
    public let engine: any TranslationEngine
    /// The prompt format of the model that is loaded (never the one merely selected).
    public let format: PromptFormat
    /// At most this many tokens per chunk's translation.
    public let maxTokens: Int

    public init(engine: any TranslationEngine, format: PromptFormat, maxTokens: Int = 512) {
        self.engine = engine
        self.format = format
        self.maxTokens = maxTokens
    }

    /// Splits `text` into the chunks translated one by one.
    /// - Throws: `TranslationError` for empty text or text longer than the context.
    public func plan(_ text: String, direction: TranslationDirection) throws -> TranslationPlan {
        guard !text.unicodeScalars.contains("\0") else { throw TranslationError.invalidText }
        let prepared = TranslationPrompt.prepare(text)
        guard !prepared.isEmpty else { throw TranslationError.emptyText }
        let total = engine.tokenCount(of: prepared) ?? 0
        guard total <= engine.contextLength else {
            throw TranslationError.textTooLong(tokens: total, limit: engine.contextLength)
        }
        // A chunk must leave room for its translation, and be short enough that the
        // translation fits in maxTokens.
        let promptBudget = engine.contextLength - maxTokens
        return TranslationPlan(prepared) { chunk in
            let prompt = format.translationPrompt(for: chunk, direction: direction)
            guard let promptTokens = engine.tokenCount(of: prompt.prompt),
                let chunkTokens = engine.tokenCount(of: chunk)
            else { return true }
            return promptTokens <= promptBudget && chunkTokens <= maxTokens / 2
        }
    }

    /// Streams the translation of `text`, chunk by chunk.
    ///
    /// Cancelling the consuming task stops the running generation.
    public func translate(_ text: String, direction: TranslationDirection) -> AsyncThrowingStream<TranslationProgress, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(text, direction: direction, into: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func run(
        _ text: String, direction: TranslationDirection, into continuation: AsyncThrowingStream<TranslationProgress, Error>.Continuation
    ) async throws {
        let plan = try plan(text, direction: direction)
        let chunks = plan.chunks
        var translations: [String] = []
        var stats = TranslationStats()
        var shown = ""

        func report(final: Bool) {
            let text = plan.assemble(translations)
            // Compared as bytes, not Characters: a piece that begins with a combining mark
            // changes the last Character of the text before it, which is then no longer a
            // Character prefix, and the whole text would be written out again.
            let addition = text.utf8.starts(with: shown.utf8)
                ? String(decoding: text.utf8.dropFirst(shown.utf8.count), as: UTF8.self) : text
            shown = text
            continuation.yield(
                TranslationProgress(
                    text: text, addition: addition, finishedChunks: final ? chunks.count : max(translations.count - 1, 0),
                    chunkCount: chunks.count, stats: stats, isFinal: final))
        }

        for chunk in chunks {
            try Task.checkCancellation()
            let prompt = format.translationPrompt(for: chunk, direction: direction)
            var output = TranslationOutput()
            translations.append("")
            for try await event in engine.complete(prompt, maxTokens: maxTokens) {
                switch event {
                case .piece(let piece):
                    guard !output.append(piece).isEmpty else { continue }
                    translations[translations.count - 1] = output.text
                    report(final: false)
                case .finished(let figures):
                    stats.add(figures)
                }
            }
            try Task.checkCancellation()
        }
        report(final: true)
    }
}
