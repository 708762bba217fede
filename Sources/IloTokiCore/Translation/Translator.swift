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
    /// The smallest fraction of the model found in memory as a chunk started.
    public var residentFraction = 1.0
    public var restoredBytes = 0
    public var restoreMilliseconds = 0.0

    public init() {}

    public var decodeTokensPerSecond: Double {
        decodeMilliseconds > 0 ? Double(decodedTokens) * 1000 / decodeMilliseconds : 0
    }

    /// Adds another translation's figures (the pieces of one text translated apart).
    public mutating func add(_ other: TranslationStats) {
        if generatedTokens == 0, promptTokens == 0 { firstPieceMilliseconds = other.firstPieceMilliseconds }
        promptTokens += other.promptTokens
        generatedTokens += other.generatedTokens
        prefillMilliseconds += other.prefillMilliseconds
        decodeMilliseconds += other.decodeMilliseconds
        decodedTokens += other.decodedTokens
        majorPageFaults += other.majorPageFaults
        residentFraction = min(residentFraction, other.residentFraction)
        restoredBytes += other.restoredBytes
        restoreMilliseconds += other.restoreMilliseconds
    }

    mutating func add(_ stats: CompletionStats) {
        if generatedTokens == 0, promptTokens == 0 { firstPieceMilliseconds = stats.firstPieceMilliseconds }
        promptTokens += stats.promptTokens
        generatedTokens += stats.generatedTokens
        prefillMilliseconds += stats.prefillMilliseconds
        decodeMilliseconds += stats.decodeMilliseconds
        decodedTokens += stats.decodedTokens
        majorPageFaults += stats.majorPageFaults
        residentFraction = min(residentFraction, stats.residentFraction)
        restoredBytes += stats.restoredBytes
        restoreMilliseconds += stats.restoreMilliseconds
    }
}

/// Why a text cannot be translated.
public enum TranslationError: Error, LocalizedError, Equatable, Sendable {
    /// Nothing but whitespace.
    case emptyText
    /// A sentence longer than the model translates at once, with no place to split it (no
    /// comma, semicolon, colon or dash between spaces, or a clause still too long). `line`: its
    /// line in the text (from 1) when the text has several; `beginning`: its first words.
    case sentenceTooLong(line: Int?, beginning: String, tokens: Int, limit: Int)
    /// The text contains something that is not text (a NUL character).
    case invalidText

    public var errorDescription: String? {
        switch self {
        case .emptyText:
            "There is nothing to translate."
        case .sentenceTooLong(let line, let beginning, let tokens, let limit):
            "The sentence \(line.map { "on line \($0) " } ?? "")that begins \"\(beginning)\" is too long to translate: it has \(tokens) tokens, the model translates at most \(limit) at once, and it has no comma, semicolon, colon or dash where it could be split. Split it into shorter sentences."
        case .invalidText:
            "The text contains characters that cannot be translated (a NUL character)."
        }
    }
}

/// One text among several translated together (`Translator.translateAll`).
public struct TextToTranslate: Equatable, Sendable {
    public var text: String
    public var direction: TranslationDirection
    /// Whether the finished translation goes into the history (`TranslatorModel.translations`):
    /// not for a piece of a longer text.
    public var keepsInHistory: Bool

    public init(_ text: String, direction: TranslationDirection, keepsInHistory: Bool = true) {
        self.text = text
        self.direction = direction
        self.keepsInHistory = keepsInHistory
    }
}

/// How one of several texts translated together is coming along.
public enum TextUpdate: Sendable {
    /// The text at `index` so far (final when `progress.isFinal`).
    case progress(index: Int, TranslationProgress)
    /// The text at `index` could not be translated; the others go on.
    case failed(index: Int, any Error)

    /// The text the update is about.
    public var index: Int {
        switch self {
        case .progress(let index, _), .failed(let index, _): index
        }
    }
}

/// Translates text with a loaded model: plans the chunks (line by line, each line by sentence
/// unless asked to keep lines whole), builds each prompt in the model's own format, decodes the
/// chunks together as far as the engine can (`TranslationEngine.completeAll`), and streams each
/// text's assembled translation, every sentence in its place as it fills in. Every front end
/// translates through this.
public struct Translator: Sendable {
    public let engine: any TranslationEngine
    /// The prompt format of the model that is loaded (never the one merely selected).
    public let format: PromptFormat
    /// At most this many tokens per chunk's translation.
    public let maxTokens: Int
    /// Each sentence on its own (the default); `false` translates each line whole where it fits.
    public let bySentence: Bool
    /// A lower bound on each chunk's translation than the usual one, when given (`ilotoki
    /// translate --max-tokens`: benchmarks of the plumbing with a model that never stops).
    public let outputLimit: Int?

    public init(
        engine: any TranslationEngine, format: PromptFormat, maxTokens: Int = Translator.defaultMaxTokens, bySentence: Bool = true,
        outputLimit: Int? = nil
    ) {
        self.engine = engine
        self.format = format
        self.maxTokens = maxTokens
        self.bySentence = bySentence
        self.outputLimit = outputLimit.map { max($0, 1) }
    }

    /// Splits `text` into the chunks translated one by one. A text of any length is
    /// translated: only a single sentence longer than a chunk may be, with no clause end to
    /// split it at, is refused.
    /// - Throws: `TranslationError` for empty text, a NUL character, or such a sentence.
    public func plan(_ text: String, direction: TranslationDirection) throws -> TranslationPlan {
        guard !text.unicodeScalars.contains("\0") else { throw TranslationError.invalidText }
        let prepared = TranslationPrompt.prepare(text)
        guard !prepared.isEmpty else { throw TranslationError.emptyText }
        // A chunk must leave room for its translation, and be short enough that the
        // translation fits in maxTokens.
        let promptBudget = engine.contextLength - maxTokens
        let plan = TranslationPlan(prepared, bySentence: bySentence) { chunk in
            let prompt = format.translationPrompt(for: chunk, direction: direction)
            guard let promptTokens = engine.tokenCount(of: prompt.prompt),
                let chunkTokens = engine.tokenCount(of: chunk)
            else { return true }
            return promptTokens <= promptBudget && chunkTokens <= chunkTokenLimit
        }
        if let overlong = plan.overlong {
            let words = overlong.sentence.split(whereSeparator: TranslationPlan.isSpace)
            var beginning = words.prefix(6).joined(separator: " ")
            if beginning.count > 60 { beginning = String(beginning.prefix(60)) }
            if words.count > 6 || beginning.count < overlong.sentence.count { beginning += "…" }
            throw TranslationError.sentenceTooLong(
                line: plan.lines.count > 1 ? overlong.line + 1 : nil, beginning: beginning,
                tokens: engine.tokenCount(of: overlong.sentence) ?? 0, limit: chunkTokenLimit)
        }
        return plan
    }

    /// The most tokens of source text one chunk may have: its translation must fit in
    /// `maxTokens` (a translation is rarely more than twice its source).
    public var chunkTokenLimit: Int { maxTokens / 2 }

    /// The most tokens a chunk of `sourceTokens` tokens may be translated into: a bound on a
    /// model caught in a loop, far above what any translation needs (docs/translation.md,
    /// "How long a translation may be"), and never above `maxTokens`.
    public func tokenLimit(forSourceTokens sourceTokens: Int) -> Int {
        min(Self.tokenLimit(forSourceTokens: sourceTokens, maxTokens: maxTokens), outputLimit ?? maxTokens)
    }

    /// The same bound for a translator whose largest output is `maxTokens`.
    public static func tokenLimit(forSourceTokens sourceTokens: Int, maxTokens: Int = defaultMaxTokens) -> Int {
        min(maxTokens, outputTokensPerSourceToken * sourceTokens + outputTokenMargin)
    }

    /// The largest output of a translation unless a translator is made with another.
    public static let defaultMaxTokens = 512

    /// Output tokens allowed per source token, and the margin on top (short sentences, names).
    public static let outputTokensPerSourceToken = 4
    public static let outputTokenMargin = 32

    /// Streams the translation of `text`: all its chunks at once where the engine decodes
    /// several together, each in its place.
    ///
    /// Cancelling the consuming task stops the running generation.
    public func translate(_ text: String, direction: TranslationDirection) -> AsyncThrowingStream<TranslationProgress, Error> {
        Self.progress(ofOnlyText: translateAll([TextToTranslate(text, direction: direction)]))
    }

    /// The updates of a batch of one text as that text's progress: its failure ends the stream
    /// with the error. Cancelling the consuming task cancels the batch.
    static func progress(ofOnlyText updates: AsyncThrowingStream<TextUpdate, Error>) -> AsyncThrowingStream<TranslationProgress, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await update in updates {
                        switch update {
                        case .progress(_, let progress): continuation.yield(progress)
                        case .failed(_, let error): throw error
                        }
                    }
                    try Task.checkCancellation()
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Streams the translations of several texts made together: their chunks go to the engine
    /// as one batch, so the texts' sentences share every decoding step. Each text's updates come
    /// in its own order and end with a final progress or a failure; texts finish in any order.
    ///
    /// Cancelling the consuming task stops every generation.
    public func translateAll(_ texts: [TextToTranslate]) -> AsyncThrowingStream<TextUpdate, Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await run(texts, into: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// One text's translation as its chunks come in.
    struct Assembly {
        let plan: TranslationPlan
        var outputs: [TranslationOutput]
        var finished: [Bool]
        var stats = TranslationStats()
        /// What `addition`s have given so far: the text up to the first chunk not finished.
        var shownInOrder = ""
        var failed = false

        init(plan: TranslationPlan) {
            self.plan = plan
            outputs = Array(repeating: TranslationOutput(), count: plan.chunks.count)
            finished = Array(repeating: false, count: plan.chunks.count)
        }

        var isComplete: Bool { !finished.contains(false) }

        /// The whole text so far, and what the in-order text gained.
        mutating func progress() -> TranslationProgress {
            let translations = outputs.map(\.text)
            let text = plan.assemble(translations)
            // Output that can only append (a terminal) gets the chunks in order: everything up to
            // and including the first chunk still streaming.
            let streaming = finished.firstIndex(of: false) ?? finished.count - 1
            let inOrder = isComplete ? text : plan.assemble(Array(translations.prefix(streaming + 1)))
            // Compared as bytes, not Characters: a piece that begins with a combining mark
            // changes the last Character of the text before it, which is then no longer a
            // Character prefix, and the whole text would be written out again.
            let addition =
                inOrder.utf8.starts(with: shownInOrder.utf8)
                ? String(decoding: inOrder.utf8.dropFirst(shownInOrder.utf8.count), as: UTF8.self) : inOrder
            shownInOrder = inOrder
            let done = finished.filter { $0 }.count
            return TranslationProgress(
                text: text, addition: addition, finishedChunks: done, chunkCount: finished.count, stats: stats, isFinal: isComplete)
        }

        /// Takes in an event of its chunk `chunk`; returns the update it makes for the text at
        /// `index`, if any.
        mutating func take(_ event: BatchCompletionEvent, chunk: Int, index: Int) -> TextUpdate? {
            guard !failed else { return nil }
            switch event {
            case .piece(_, let piece):
                guard !outputs[chunk].append(piece).isEmpty else { return nil }
                return .progress(index: index, progress())
            case .finished(_, let figures):
                stats.add(figures)
                finished[chunk] = true
                let progress = progress()
                return progress.isFinal || !progress.addition.isEmpty ? .progress(index: index, progress) : nil
            case .failed(_, let error):
                failed = true
                return .failed(index: index, error)
            }
        }
    }

    /// The prompt of each of a plan's chunks, with its token limit.
    func chunkPrompts(for plan: TranslationPlan, direction: TranslationDirection) -> [(prompt: TranslationPrompt, maxTokens: Int)] {
        plan.chunks.map { chunk in
            (
                format.translationPrompt(for: chunk, direction: direction),
                tokenLimit(forSourceTokens: engine.tokenCount(of: chunk) ?? maxTokens)
            )
        }
    }

    private func run(_ texts: [TextToTranslate], into continuation: AsyncThrowingStream<TextUpdate, Error>.Continuation) async throws {
        var assemblies: [Int: Assembly] = [:]
        var prompts: [TranslationPrompt] = []
        var limits: [Int] = []
        var owners: [(text: Int, chunk: Int)] = []
        for (index, item) in texts.enumerated() {
            do {
                let plan = try plan(item.text, direction: item.direction)
                assemblies[index] = Assembly(plan: plan)
                for (chunkIndex, chunk) in chunkPrompts(for: plan, direction: item.direction).enumerated() {
                    prompts.append(chunk.prompt)
                    limits.append(chunk.maxTokens)
                    owners.append((index, chunkIndex))
                }
            } catch {
                continuation.yield(.failed(index: index, error))
            }
        }
        guard !prompts.isEmpty else { return }
        for try await event in engine.completeAll(prompts, maxTokens: limits) {
            try Task.checkCancellation()
            let owner = owners[event.index]
            if let update = assemblies[owner.text]?.take(event, chunk: owner.chunk, index: owner.text) { continuation.yield(update) }
        }
        try Task.checkCancellation()
    }
}
