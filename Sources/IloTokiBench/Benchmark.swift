import Foundation
import IloTokiCore
import IloTokiEngineLive
import IloTokiLLM

/// `ilotoki bench`'s measurement, apart from the command line so that only it links the engine
/// itself (`IloTokiLLM`): loads a model, warms it, and times the fixed benchmark prompts or real
/// lines, one at a time and in batches, with each output head.
public struct Benchmark: Sendable {
    /// What to measure: the command line's options, read and checked.
    public struct Settings: Sendable {
        /// How each token is chosen: the engine's argmax, llama.cpp's greedy sampler or its
        /// sampling chain (top-k/top-p/temperature).
        public enum Selection: String, Sendable { case argmax, greedy, chain }

        /// Real lines instead of the fixed prompts: the 112 written for the bench, or a file's.
        public enum Lines: Sendable {
            case set
            case file(String)
        }

        public var modelPath: String
        public var format: PromptFormat = .sourceTarget
        public var maxTokens = 32
        public var promptLimit = Int.max
        public var selection: Selection = .argmax
        public var logitsForAllPromptTokens = false
        public var head: Head = .auto
        /// Thread counts to sweep; `nil`: the performance cores.
        public var threadCounts: [Int]?
        public var target: Language?
        public var lines: Lines?
        public var json = false
        public var evict = false
        public var restore = true
        public var reusePrefix = true
        public var fewShot = false
        public var batchSizes: [Int]?

        public init(modelPath: String) { self.modelPath = modelPath }
    }

    /// The most sequences a batch decodes together.
    public static var largestBatch: Int { Engine.maxSequences }

    let settings: Settings
    /// Where each prompt's line goes as it is measured (not with `json`).
    let progress: @Sendable (String) -> Void

    public init(_ settings: Settings, progress: @escaping @Sendable (String) -> Void) {
        self.settings = settings
        self.progress = progress
    }

    struct PromptFigures: Codable {
        let index: Int
        let direction: String
        let promptTokens: Int
        /// The part of `promptTokens` whose cells came from the cache of prompt beginnings.
        let reusedPromptTokens: Int
        let generatedTokens: Int
        let decodedTokens: Int
        let firstPieceMs: Double
        let prefillMs: Double
        let decodeMs: Double
        let selectionMs: Double
        let prefillTokensPerSecond: Double
        let decodeTokensPerSecond: Double
        let majorPageFaults: Int
        /// The fraction of the model in memory as the prompt started, the bytes read back
        /// first, and the time that took (counted in `translationMs`).
        let residentBefore: Double
        let restoredBytes: Int
        let restoreMs: Double
        /// The part of `majorPageFaults` that came during the residency check and restore.
        let restorePageFaults: Int
        /// Tokens the context held (sized to the translation).
        let contextLength: Int
        /// Restore, prefill and decode: the whole translation.
        let translationMs: Double
        let targetLanguage: String
        /// The head this prompt used ("trimmed" or "full").
        let head: String
        let tokens: [Int32]
        let headRows: Int
        let headChecks: Int
        let headRollbacks: Int
        let headFullSteps: Int
        let headExactChoices: Int
        let headFellBack: Bool
        let headWidened: Bool
        let headSketchedChecks: Int
        let headRowsReadExactly: Int
    }

    struct RunFigures: Codable {
        let threads: Int
        let chosenByPerformanceCoreCount: Bool
        let loadMs: Double
        let prompts: [PromptFigures]
        let prefillTokensPerSecond: Double
        let decodeTokensPerSecond: Double
        let medianDecodeTokensPerSecond: Double
        let medianFirstPieceMs: Double
        let selectionMsPerToken: Double
        let majorPageFaults: Int
        /// Major faults while evaluating and decoding: `majorPageFaults` less the restores'.
        let evaluationPageFaults: Int
        /// How the model was paged out before each prompt (`--evict`), and whether the
        /// missing pages were read back first.
        let evictedWith: String?
        let restore: Bool
        let restoreMs: Double
        let restoredBytes: Int
        /// Decoded tokens over decode time plus the restore's: the speed a user sees after
        /// the system took the model away.
        let decodeWithRestoreTokensPerSecond: Double
        let peakRSSMiB: Double
        let peakAnonymousRSSMiB: Double
        let headChecks: Int
        let headRollbacks: Int
        let headFullSteps: Int
        let headExactChoices: Int
        let headFellBack: Int
        let headWidened: Int
        /// Checks served by the sketch of the rows left out, and the rows they read exactly.
        let headSketchedChecks: Int
        let headRowsReadExactly: Int
        /// The head chosen into each target language, in one line ("tok trimmed, en full"; with
        /// `--head auto`, after its first prompts measured both), or `nil` while every one is
        /// still measuring, and why.
        let headChoice: String?
        let headReason: String
        /// The choice by target language's code ("undecided" while measuring).
        let headChoices: [String: String]
        /// Milliseconds per decoded token of each head while measuring (`--head auto`).
        let trimmedMsPerToken: Double?
        let fullMsPerToken: Double?
        /// The prompts decoded together, for each `--batch` size.
        let batches: [BatchFigures]?
        /// Wall time of the prompts one after another (each line's start to its end, restores,
        /// prefills and decodes together), and the prefill and decode parts of it.
        let oneAtATimeWallMs: Double
        let prefillMs: Double
        let decodeMs: Double
    }

    struct BatchFigures: Codable {
        let sequences: Int
        let prompts: Int
        let wallMs: Double
        let firstPieceMs: Double
        let prefillMs: Double
        let decodeMs: Double
        let decodedTokens: Int
        let generatedTokens: Int
        /// All sequences' decoded tokens over the decode steps' wall time.
        let decodeTokensPerSecond: Double
        /// Generated tokens over the wall time, prefill included.
        let tokensPerSecond: Double
        /// The first batch size's wall time over this one's.
        let speedUp: Double
        /// Prompts whose tokens differ from the same prompt's translated alone (the
        /// sentence-by-sentence run before the batches).
        let promptsDiffering: Int
        let peakAnonymousRSSMiB: Double
        /// The head the batch asked for, the rows its steps computed and its checks.
        let head: String
        let headRows: Int
        let headChecks: Int
        let headRollbacks: Int
        let tokens: [[Int32]]
    }

    struct Report: Codable {
        /// Real lines (`--lines`), each ending at its line's end, instead of the fixed prompts.
        let lines: Bool
        let model: String
        let modelBytes: Int64
        let description: String
        let backend: String
        let maxTokens: Int
        let selection: String
        let logitsForAllPromptTokens: Bool
        let head: String
        let trimmedHeadAvailable: Bool
        let trimmedHeadKernel: String
        /// Checks of fewer states use ggml's vec_dot (measured at load); 0: vec_dot for all.
        let trimmedHeadKernelFromStates: Int
        /// Why and how checks stream the excluded rows from the file; empty where they do not.
        let trimmedHeadCheckStreams: String
        let performanceCoreCount: Int
        let runs: [RunFigures]
    }

    /// Runs the measurement; returns the report: the summary table, or JSON with `json`.
    @MainActor
    public func run() async throws -> String {
        let path = settings.modelPath
        let maxTokens = settings.maxTokens
        let format = settings.format
        let selection: TokenSelection
        switch settings.selection {
        case .argmax: selection = .argmax
        case .greedy: selection = .llamaGreedy
        case .chain: selection = .llamaSamplingChain
        }
        let head = settings.head
        let chosen = PerformanceCores.count
        let threadCounts = settings.threadCounts ?? [chosen]
        let target = settings.target
        // Real lines (`--lines`) end at their line's end as translations do; the 36 prompts run
        // to --max-tokens unless --few-shot.
        let lines: [BenchmarkPrompts.Prompt]?
        switch settings.lines {
        case nil: lines = nil
        case .set: lines = BenchmarkLines.all
        case .file(let file)?:
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw BenchmarkError("Could not read the lines in '\(file)' as UTF-8 text.")
            }
            lines = try BenchmarkLines.read(text)
            if lines?.isEmpty ?? true { throw BenchmarkError("'\(file)' has no lines to translate.") }
        }
        let endAtLine = lines != nil || settings.fewShot
        let prompts = Array(
            (lines ?? BenchmarkPrompts.all).filter { target == nil || $0.direction.target == target }.prefix(settings.promptLimit))
        let json = settings.json
        let evict = settings.evict
        let restore = settings.restore
        let fewShot = settings.fewShot
        let batchSizes = settings.batchSizes
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0

        var runs: [RunFigures] = []
        var description = ""
        var trimmable = false
        var kernel = ""
        var kernelFromStates = 0
        var checkStreams = ""
        for threads in threadCounts {
            if !json { progress("threads \(threads): loading \(path)\n") }
            let start = ContinuousClock.now
            let engine = try await Engine.load(path: path, options: Engine.Options(threads: threads))
            let loadMs = milliseconds(ContinuousClock.now - start)
            description = engine.info.description
            trimmable = engine.info.trimmedHead
            kernel = engine.info.trimmedHeadKernel
            kernelFromStates = engine.info.trimmedHeadKernelFromStates
            checkStreams = engine.info.trimmedHeadCheckStreams
            // Warm up: pages in, compute buffers allocated, caches hot, every direction's rows known.
            for direction in TranslationDirection.all {
                for warm in head.heads {
                    _ = try await generate(
                        engine, format.translationPrompt(for: "toki!", direction: direction), maxTokens: 4, selection: selection, head: warm
                    )
                }
            }
            // The choice is measured for each target language on its own, as the app measures it.
            let fresh = HeadCalibration.start(asked: head.asked, info: engine.info)
            var calibrations: [Language: HeadCalibration] = [:]

            // Each real line's output bound, as its translation's.
            let lineLimits = lines == nil ? nil : prompts.map { Self.lineLimit(engine, $0.text) }
            var figures: [PromptFigures] = []
            var peakAnonymous = memory().anonymous
            let oneAtATimeStart = ContinuousClock.now
            var evictedWith: String?
            for (index, prompt) in prompts.enumerated() {
                var translationPrompt = format.translationPrompt(for: prompt.text, direction: prompt.direction)
                if fewShot { translationPrompt = BenchmarkPrompts.fewShot(translationPrompt, direction: prompt.direction, format: format) }
                let target = prompt.direction.target
                let used = calibrations[target, default: fresh].next
                if evict { evictedWith = try engine.evict() }
                let stats = try await generate(
                    engine, translationPrompt, maxTokens: lineLimits?[index] ?? maxTokens,
                    selection: selection, head: used, restore: restore, endAtLine: endAtLine)
                calibrations[target, default: fresh].record(used, tokens: stats.answerSteps, milliseconds: stats.decodeMilliseconds)
                peakAnonymous = max(peakAnonymous, memory().anonymous)
                figures.append(
                    PromptFigures(
                        index: index + 1, direction: prompt.direction.description, promptTokens: stats.promptTokens,
                        reusedPromptTokens: stats.reusedPromptTokens,
                        generatedTokens: stats.generatedTokens, decodedTokens: stats.decodedTokens,
                        firstPieceMs: stats.firstPieceMilliseconds, prefillMs: stats.prefillMilliseconds,
                        decodeMs: stats.decodeMilliseconds,
                        selectionMs: stats.selectionMilliseconds, prefillTokensPerSecond: stats.prefillTokensPerSecond,
                        decodeTokensPerSecond: stats.decodeTokensPerSecond, majorPageFaults: stats.majorPageFaults,
                        residentBefore: stats.residentFraction, restoredBytes: stats.restoredBytes, restoreMs: stats.restoreMilliseconds,
                        restorePageFaults: stats.restorePageFaults, contextLength: stats.contextLength,
                        translationMs: stats.restoreMilliseconds + stats.prefillMilliseconds + stats.decodeMilliseconds,
                        targetLanguage: prompt.direction.target.code, head: used.rawValue, tokens: stats.tokens, headRows: stats.head.rows,
                        headChecks: stats.head.checks, headRollbacks: stats.head.rollbacks, headFullSteps: stats.head.fullHeadSteps,
                        headExactChoices: stats.head.exactChoices, headFellBack: stats.head.fellBack, headWidened: stats.head.widened,
                        headSketchedChecks: stats.head.sketchedChecks, headRowsReadExactly: stats.head.rowsReadExactly))
                if !json {
                    progress(
                        String(
                            format:
                                "  %2d %@  resident %5.1f%%%@  prompt %3d tok  %6.0f tok/s   gen %3d tok  %6.1f tok/s   first piece %6.1f ms   faults %d%@   head %6d rows, %d checks, %d rollbacks%@\n",
                            index + 1, prompt.direction.description, stats.residentFraction * 100,
                            stats.restoredBytes > 0
                                ? String(
                                    format: " (%.0f MiB read back in %.0f ms)", Double(stats.restoredBytes) / 1_048_576,
                                    stats.restoreMilliseconds) : "",
                            stats.promptTokens, stats.prefillTokensPerSecond,
                            stats.generatedTokens, stats.decodeTokensPerSecond, stats.firstPieceMilliseconds, stats.majorPageFaults,
                            stats.restorePageFaults > 0 ? " (\(stats.restorePageFaults) in the restore)" : "",
                            stats.head.rows, stats.head.checks, stats.head.rollbacks,
                            (stats.head.fellBack ? " → full head" : stats.head.widened ? " → four languages' rows" : "")
                                + (stats.head.sketchedChecks > 0
                                    ? ", \(stats.head.sketchedChecks) by the sketch reading \(stats.head.rowsReadExactly) rows" : "")))
                }
            }
            let oneAtATimeWallMs = milliseconds(ContinuousClock.now - oneAtATimeStart)
            var batches: [BatchFigures]?
            if let batchSizes {
                let batchPrompts = prompts.map { prompt in
                    let translation = format.translationPrompt(for: prompt.text, direction: prompt.direction)
                    return fewShot ? BenchmarkPrompts.fewShot(translation, direction: prompt.direction, format: format) : translation
                }
                // The head the sentence-by-sentence runs chose (or were told), as the app's batches do.
                batches = try await runBatches(
                    engine, batchPrompts, alone: figures.map(\.tokens), sizes: batchSizes,
                    maxTokens: lineLimits?.max() ?? maxTokens, limits: lineLimits,
                    head: prompts.first.flatMap { calibrations[$0.direction.target]?.choice } ?? .full, asked: head.asked,
                    endAtLine: endAtLine,
                    json: json)
            }
            // Answer tokens, as a person sees them: steps the trimmed head took again are time only.
            let decoded = figures.reduce(0) { $0 + max($1.generatedTokens - 1, 0) }
            let decodeMs = figures.reduce(0) { $0 + $1.decodeMs }
            let promptTokens = figures.reduce(0) { $0 + $1.promptTokens }
            let prefillMs = figures.reduce(0) { $0 + $1.prefillMs }
            let selectionMs = figures.reduce(0) { $0 + $1.selectionMs }
            let restoreMs = figures.reduce(0) { $0 + $1.restoreMs }
            let faults = figures.reduce(0) { $0 + $1.majorPageFaults }
            let restoreFaults = figures.reduce(0) { $0 + $1.restorePageFaults }
            runs.append(
                RunFigures(
                    threads: threads, chosenByPerformanceCoreCount: threads == chosen, loadMs: loadMs, prompts: figures,
                    prefillTokensPerSecond: prefillMs > 0 ? Double(promptTokens) * 1000 / prefillMs : 0,
                    decodeTokensPerSecond: decodeMs > 0 ? Double(decoded) * 1000 / decodeMs : 0,
                    medianDecodeTokensPerSecond: median(figures.map(\.decodeTokensPerSecond)),
                    medianFirstPieceMs: median(figures.map(\.firstPieceMs)),
                    selectionMsPerToken: decoded > 0 ? selectionMs / Double(figures.reduce(0) { $0 + $1.generatedTokens }) : 0,
                    majorPageFaults: faults, evaluationPageFaults: faults - restoreFaults,
                    evictedWith: evictedWith, restore: restore, restoreMs: restoreMs,
                    restoredBytes: figures.reduce(0) { $0 + $1.restoredBytes },
                    decodeWithRestoreTokensPerSecond: decodeMs + restoreMs > 0 ? Double(decoded) * 1000 / (decodeMs + restoreMs) : 0,
                    peakRSSMiB: memory().peak, peakAnonymousRSSMiB: peakAnonymous,
                    headChecks: figures.reduce(0) { $0 + $1.headChecks }, headRollbacks: figures.reduce(0) { $0 + $1.headRollbacks },
                    headFullSteps: figures.reduce(0) { $0 + $1.headFullSteps },
                    headExactChoices: figures.reduce(0) { $0 + $1.headExactChoices }, headFellBack: figures.filter(\.headFellBack).count,
                    headWidened: figures.filter(\.headWidened).count,
                    headSketchedChecks: figures.reduce(0) { $0 + $1.headSketchedChecks },
                    headRowsReadExactly: figures.reduce(0) { $0 + $1.headRowsReadExactly }, headChoice: Self.choices(calibrations),
                    headReason: Self.reasons(calibrations, prompts: figures.count),
                    headChoices: Dictionary(
                        uniqueKeysWithValues: calibrations.map { ($0.key.code, $0.value.choice?.rawValue ?? "undecided") }),
                    trimmedMsPerToken: Self.merged(calibrations.values.map(\.trimmed)).millisecondsPerToken,
                    fullMsPerToken: Self.merged(calibrations.values.map(\.full)).millisecondsPerToken,
                    batches: batches, oneAtATimeWallMs: oneAtATimeWallMs, prefillMs: prefillMs, decodeMs: decodeMs))
        }

        let report = Report(
            lines: lines != nil, model: path, modelBytes: bytes, description: description, backend: Engine.backendVersion,
            maxTokens: maxTokens,
            selection: settings.selection.rawValue, logitsForAllPromptTokens: settings.logitsForAllPromptTokens,
            head: head.rawValue, trimmedHeadAvailable: trimmable, trimmedHeadKernel: kernel, trimmedHeadKernelFromStates: kernelFromStates,
            trimmedHeadCheckStreams: checkStreams,
            performanceCoreCount: chosen, runs: runs)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
        }
        return summary(report)
    }

    /// A line's output bound: a translation's (`Translator.tokenLimit`).
    static func lineLimit(_ engine: Engine, _ text: String) -> Int {
        Translator.tokenLimit(forSourceTokens: engine.tokenCount(of: text) ?? Translator.defaultMaxTokens)
    }

    /// The choices by target language, in the languages' order: "tok trimmed, en full".
    static func choices(_ calibrations: [Language: HeadCalibration]) -> String? {
        let decided = Language.allCases.compactMap { language in
            calibrations[language]?.choice.map { "\(language.code) \($0.rawValue)" }
        }
        return decided.isEmpty ? nil : decided.joined(separator: ", ")
    }

    static func reasons(_ calibrations: [Language: HeadCalibration], prompts: Int) -> String {
        Language.allCases.compactMap { language in
            calibrations[language].map { calibration in
                "into \(language.code): " + (calibration.choice == nil ? "still measuring after \(prompts) prompts" : calibration.reason)
            }
        }.joined(separator: "; ")
    }

    static func merged(_ samples: [HeadCalibration.Sample]) -> HeadCalibration.Sample {
        samples.reduce(into: HeadCalibration.Sample()) { total, sample in
            total.runs += sample.runs
            total.tokens += sample.tokens
            total.milliseconds += sample.milliseconds
        }
    }

    private func generate(
        _ engine: Engine, _ prompt: TranslationPrompt, maxTokens: Int, selection: TokenSelection, head: OutputHead, restore: Bool = true,
        endAtLine: Bool = false
    ) async throws -> GenerationStats {
        // Ending at the line, the answer stops where a translation's would (LLMTranslationEngine).
        let options = GenerationOptions(
            maxTokens: maxTokens, maxLines: endAtLine ? prompt.maxLines : nil, stopSequences: endAtLine ? prompt.stopSequences : [],
            selection: selection, logitsForAllPromptTokens: settings.logitsForAllPromptTokens, head: head, restoreResidency: restore,
            reusePrefix: settings.reusePrefix
        ).writing(prompt.targetLanguage)
        for try await event in engine.events(prompt: prompt.prompt, options: options) {
            if case .finished(let stats) = event { return stats }
        }
        try Task.checkCancellation()  // Ctrl-C: the command ends with 130, not as a failure
        throw BenchmarkError("The benchmark generation ended without figures.")
    }

    /// The prompts as one batch for each size: wall time, first piece, throughput, and the
    /// tokens compared with each prompt's `alone`.
    @MainActor
    private func runBatches(
        _ engine: Engine, _ prompts: [TranslationPrompt], alone: [[Int32]], sizes: [Int], maxTokens: Int, limits: [Int]? = nil,
        head: OutputHead, asked: OutputHead?, endAtLine: Bool, json: Bool
    ) async throws -> [BatchFigures] {
        var stops: [String] = []
        for stop in prompts.flatMap(\.stopSequences) where endAtLine && !stops.contains(stop) { stops.append(stop) }
        // As the app's batches run (LLMTranslationEngine): steps of several sequences over every
        // row unless llama.cpp's head is asked for, and the trimmed head's few-sequence steps where
        // it was chosen, into one language.
        var options = GenerationOptions(
            maxTokens: maxTokens, maxLines: endAtLine ? prompts.first?.maxLines : nil, stopSequences: stops,
            head: asked == .full ? .full : .trimmed,
            reusePrefix: settings.reusePrefix)
        if head == .trimmed, let first = prompts.first, prompts.allSatisfy({ $0.targetLanguage == first.targetLanguage }) {
            options = options.writing(first.targetLanguage)
        }
        // Warm: the batch context is made for the largest batch (and kept), its buffers touched.
        let largest = sizes.max() ?? 1
        for try await _ in engine.batchEvents(
            prompts: Array(prompts.prefix(largest).map(\.prompt)),
            maxTokens: Array(repeating: maxTokens, count: min(largest, prompts.count)),
            sequences: largest, options: options)
        {}
        var results: [BatchFigures] = []
        for size in sizes {
            var tokens = Array(repeating: [Int32](), count: prompts.count)
            var firstPiece: Double?
            let start = ContinuousClock.now
            var peakAnonymous = memory().anonymous
            for try await event in engine.batchEvents(
                prompts: prompts.map(\.prompt), maxTokens: limits, sequences: size, options: options)
            {
                switch event {
                case .piece:
                    if firstPiece == nil { firstPiece = milliseconds(ContinuousClock.now - start) }
                case .finished(let index, let stats):
                    tokens[index] = stats.tokens
                    peakAnonymous = max(peakAnonymous, memory().anonymous)
                case .failed(let index, let error):
                    throw BenchmarkError("Benchmark prompt \(index + 1) failed in a batch of \(size): \(error.localizedDescription)")
                }
            }
            try Task.checkCancellation()
            let wall = milliseconds(ContinuousClock.now - start)
            let totals = engine.currentTotals
            let figures = BatchFigures(
                sequences: size, prompts: prompts.count, wallMs: wall, firstPieceMs: firstPiece ?? 0, prefillMs: totals.prefillMilliseconds,
                decodeMs: totals.decodeMilliseconds, decodedTokens: totals.decodedTokens, generatedTokens: totals.generatedTokens,
                decodeTokensPerSecond: totals.decodeTokensPerSecond,
                tokensPerSecond: wall > 0 ? Double(totals.generatedTokens) * 1000 / wall : 0,
                speedUp: results.first.map { $0.wallMs / wall } ?? 1,
                promptsDiffering: zip(alone, tokens).filter { $0 != $1 }.count, peakAnonymousRSSMiB: peakAnonymous,
                head: head.rawValue, headRows: totals.head.rows, headChecks: totals.head.checks, headRollbacks: totals.head.rollbacks,
                tokens: tokens)
            results.append(figures)
            if !json {
                progress(
                    String(
                        format:
                            "  batch of %2d: %d prompts in %7.0f ms (%.2f×), first piece %6.1f ms, decode %6.1f tok/s, %d prompts differ from alone, %@ head %d rows, %d checks, %d rollbacks\n",
                        size, prompts.count, wall, figures.speedUp, figures.firstPieceMs, figures.decodeTokensPerSecond,
                        figures.promptsDiffering, head.rawValue, figures.headRows, figures.headChecks, figures.headRollbacks))
            }
        }
        return results
    }

    private func summary(_ report: Report) -> String {
        var text = "\n\(report.description) (\(ByteSize.text(report.modelBytes))), llama.cpp \(report.backend)\n"
        text +=
            report.lines
            ? "\(report.runs.first?.prompts.count ?? 0) lines, each to its line's end, selection \(report.selection), "
            : "\(report.runs.first?.prompts.count ?? 0) prompts, up to \(report.maxTokens) tokens each, selection \(report.selection), "
        if report.head != "full" && !report.trimmedHeadAvailable {
            text += "full head (this model's cannot be trimmed)\n\n"
        } else if report.head != "full" {
            let below = report.trimmedHeadKernelFromStates > 1 ? ", vec_dot below \(report.trimmedHeadKernelFromStates) states" : ""
            let streams = report.trimmedHeadCheckStreams.isEmpty ? "" : "; checks stream the rows: \(report.trimmedHeadCheckStreams)"
            text += "\(report.head) head (trimmed head's check kernel: \(report.trimmedHeadKernel)\(below)\(streams))\n\n"
        } else {
            text += "full head\n\n"
        }
        text += "threads   load ms   prefill tok/s   decode tok/s (median)   first piece ms (median)   faults   peak RSS / anon MiB\n"
        for run in report.runs {
            let mark = run.chosenByPerformanceCoreCount ? "  ← performance_core_count()" : ""
            text += String(
                format: "%7d %9.0f %15.1f %14.1f (%5.1f) %25.1f %8d %11.1f / %.1f%@\n", run.threads, run.loadMs, run.prefillTokensPerSecond,
                run.decodeTokensPerSecond, run.medianDecodeTokensPerSecond, run.medianFirstPieceMs, run.majorPageFaults, run.peakRSSMiB,
                run.peakAnonymousRSSMiB, mark)
            if report.head == "auto" {
                text += "        head: \(run.headChoice ?? "undecided") (\(run.headReason))\n"
            }
            if report.lines {
                text += String(
                    format:
                        "        %d lines one at a time in %.0f ms (%.2f lines/s): prefill %.0f ms, decode %.0f ms, first piece %.1f ms (median)\n",
                    run.prompts.count, run.oneAtATimeWallMs,
                    run.oneAtATimeWallMs > 0 ? Double(run.prompts.count) * 1000 / run.oneAtATimeWallMs : 0,
                    run.prefillMs, run.decodeMs, run.medianFirstPieceMs)
            }
            if let evicted = run.evictedWith {
                text += String(
                    format:
                        "        paged out before each prompt (%@); restore %@: %.0f MiB read back in %.0f ms; decode with the restore's time %.1f tok/s; %d major faults while evaluating, %d in the restores\n",
                    evicted, run.restore ? "on" : "off", Double(run.restoredBytes) / 1_048_576, run.restoreMs,
                    run.decodeWithRestoreTokensPerSecond, run.evaluationPageFaults, run.majorPageFaults - run.evaluationPageFaults)
            }
            for batch in run.batches ?? [] {
                text += String(
                    format:
                        "        batch of %2d: %d prompts in %.0f ms (%.2f× the first), first piece %.1f ms, decode %.1f tok/s aggregate, anon %.1f MiB, %d differ\n",
                    batch.sequences, batch.prompts, batch.wallMs, batch.speedUp, batch.firstPieceMs, batch.decodeTokensPerSecond,
                    batch.peakAnonymousRSSMiB, batch.promptsDiffering)
            }
            if report.head != "full" && report.trimmedHeadAvailable {
                text += String(
                    format:
                        "        trimmed head: %d checks, %d rollbacks (%d decided by their rows' exact values), %d steps with the full head; of %d prompts, %d widened to the four languages' rows, %d went on with the full head\n",
                    run.headChecks, run.headRollbacks, run.headExactChoices, run.headFullSteps, run.prompts.count, run.headWidened,
                    run.headFellBack)
                if run.headSketchedChecks > 0 {
                    text += String(
                        format:
                            "        sketch of the rows left out: %d checks ruled rows out by it, reading %d rows exactly (%.1f a check)\n",
                        run.headSketchedChecks, run.headRowsReadExactly,
                        Double(run.headRowsReadExactly) / Double(run.headSketchedChecks))
                }
            }
        }
        return text
    }

    // MARK: - Helpers

    /// The heads `bench` can run with: one, or both measured (`auto`).
    public enum Head: String, Sendable {
        case auto, trimmed, full

        var heads: [OutputHead] { asked.map { [$0] } ?? [.trimmed, .full] }

        /// The head asked for; `nil`: measure both.
        var asked: OutputHead? {
            switch self {
            case .auto: nil
            case .trimmed: .trimmed
            case .full: .full
            }
        }
    }

    /// Peak resident memory (VmHWM) and anonymous memory now (RssAnon: what the process holds
    /// beyond mapped files, so beyond the model's own pages), in MiB.
    private func memory() -> (peak: Double, anonymous: Double) {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Double {
            for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
                let parts = line.split(separator: " ")
                if parts.count >= 2, let kib = Double(parts[1]) { return kib / 1024 }
            }
            return 0
        }
        return (field("VmHWM"), field("RssAnon"))
    }

    private func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    private func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

/// A benchmark that cannot run: its lines cannot be read, or a prompt failed.
public struct BenchmarkError: Error, LocalizedError {
    let message: String
    init(_ message: String) { self.message = message }
    public var errorDescription: String? { message }
}
