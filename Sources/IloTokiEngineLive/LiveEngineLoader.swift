import Foundation
import IloTokiCore
import IloTokiLLM

/// How the live engine runs: what a front end may choose, in this module's own words, so
/// that the apps' front ends (GTK, the Android bridge) never import `IloTokiLLM` (of the
/// command line, only the bench does).
public struct LiveEngineOptions: Equatable, Sendable {
    /// The output head translations use.
    public enum Head: String, CaseIterable, Sendable {
        /// Whichever of the two is faster on this machine, measured over the first
        /// translations and kept (`HeadCalibration`): the default.
        case auto
        /// Only the rows the target language can use, checked against the others: the full
        /// head's output, faster where the check pays.
        case trimmed
        /// llama.cpp's own head over the whole vocabulary.
        case full
    }

    /// CPU threads for decoding; `nil`: what the engine chooses for this device.
    public var threads: Int?
    public var head: Head
    /// Where the head's measurements are kept (`head-calibration.json` in the app's
    /// directory); `nil` measures again at each load.
    public var calibrationFile: URL?
    /// Sentences decoded at once.
    public var batch: BatchSize
    /// Whether llama.cpp's own log lines are also written to standard error as they come
    /// (`ilotoki --verbose`); they always go to the app's `llama.log`.
    public var showsEngineLog: Bool

    public init(
        threads: Int? = nil, head: Head = .auto, calibrationFile: URL? = nil, batch: BatchSize = .fitting,
        showsEngineLog: Bool = false
    ) {
        self.threads = threads
        self.head = head
        self.calibrationFile = calibrationFile
        self.batch = batch
        self.showsEngineLog = showsEngineLog
    }
}

/// Loads models with llama.cpp (the inference library), off the cooperative thread pool: what
/// `LiveApp.model` gives every front end's app model.
public struct LiveEngineLoader: EngineLoading {
    public var options: LiveEngineOptions

    public init(options: LiveEngineOptions = LiveEngineOptions()) {
        self.options = options
    }

    public func load(path: String) async throws -> any TranslationEngine {
        var engineOptions = Engine.Options()
        engineOptions.threads = options.threads
        let engine = try await Engine.load(path: path, options: engineOptions)
        let heads = HeadChooser(
            policy: options.head, info: engine.info, path: path, store: options.calibrationFile.map(HeadCalibrationStore.init))
        return LLMTranslationEngine(engine: engine, heads: heads, sequences: options.batch)
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
