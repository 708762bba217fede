import Foundation
import Observation

/// Why the app model cannot do what was asked.
public enum TranslatorModelError: Error, LocalizedError, Equatable, Sendable {
    /// No model is loaded.
    case noModel

    public var errorDescription: String? {
        switch self {
        case .noModel: "No translation model is loaded."
        }
    }
}

/// The app model behind every screen (GTK, SwiftUI, Android, the command line): the two
/// plates, the slab, the swap knob and the model in use. It holds the model library
/// (`library`: catalog, downloads, added files) and the user's preferences and history
/// (`preferences`); a front end holds this one object, draws what `MainScreen` and the page
/// values derive from it, and calls its actions. The behaviour is written and tested once, here.
///
/// It lives on the main actor and never blocks it: loading runs on its own thread,
/// generation on the engine's queue, downloads in a task, file writes on a background queue.
@MainActor
@Observable
public final class TranslatorModel {
    /// The state of the model used for translating.
    public enum ModelState: Equatable, Sendable {
        /// No model is on the device: the target plate says so, the slab offers the download.
        case notDownloaded
        /// Downloading the model (no other model to translate with meanwhile).
        case downloading(DownloadProgress)
        /// A download stopped part way; it resumes from where it stopped.
        case paused(DownloadProgress)
        /// All bytes are here; checking them.
        case verifying
        case loading
        case ready
        /// Loading or downloading failed; the reason says what to do.
        case failed(String)

        /// The one place the model's state is decided: from where loading stands, the
        /// download under way and what is on disk of the model the slab would download.
        /// A loaded or loading engine comes first (a download of another model goes on
        /// behind it); then the download; then a load that failed; then the disk.
        /// - Parameters:
        ///   - load: where loading the engine stands.
        ///   - download: the phase of the download under way, if any.
        ///   - stored: what is on disk of the model to download (`nil`: not read yet).
        ///   - total: that model's size in bytes.
        public static func derive(load: LoadPhase, download: DownloadStatus.Phase?, stored: InstallState?, total: Int64?) -> ModelState {
            switch load {
            case .loaded: return .ready
            case .loading: return .loading
            case .idle, .failed: break
            }
            switch download {
            case .running(let progress)?: return .downloading(progress)
            case .paused(let progress)?: return .paused(progress)
            case .verifying?: return .verifying
            case .failed(let reason)?: return .failed(reason)
            case nil: break
            }
            if case .failed(let reason) = load { return .failed(reason) }
            if case .partial(let bytes)? = stored { return .paused(DownloadProgress(bytes: bytes, total: total, bytesPerSecond: 0)) }
            return .notDownloaded
        }
    }

    /// Where loading the engine stands.
    public enum LoadPhase: Equatable, Sendable {
        /// No engine, and none is loading.
        case idle
        case loading
        /// The engine is loaded (`loadedModel`) and translates.
        case loaded
        /// The last load failed; the reason says what to do.
        case failed(String)
    }

    /// The state of the translation on the target plate.
    public enum TranslationState: Equatable, Sendable {
        case idle
        case translating
        case done
        case failed(String)
    }

    /// How Toki Pona text is written on its plate. A property of the text, not a setting: it
    /// follows the Toki Pona text through a swap.
    public enum Script: String, Sendable {
        case latin
        /// sitelen pona, drawn by a ligature font from the same Latin text.
        case sitelenPona
    }

    /// What the slab (the primary action at the foot) does now.
    public enum SlabAction: Equatable, Sendable, Encodable {
        case translate
        /// A translation is streaming: the slab stops it.
        case stop
        /// No model: download this one.
        case download(CatalogEntry)
        /// The download is paused: continue it.
        case resumeDownload(CatalogEntry)
        /// Wait: a download or a load is under way.
        case busy
        /// Loading failed: try again.
        case retry
    }

    // MARK: - State

    /// The text on the source plate.
    public internal(set) var sourceText: String = "" {
        didSet { sourceDidChange(from: oldValue) }
    }
    public internal(set) var direction: TranslationDirection = .tokiPonaToEnglish
    /// The text on the target plate: the translation, streaming in.
    public internal(set) var targetText = ""
    public internal(set) var tokiPonaScript: Script = .latin
    /// Where loading the engine stands; `modelState` is derived from it.
    public internal(set) var loadPhase: LoadPhase = .idle
    public internal(set) var translationState: TranslationState = .idle
    /// How far the translation on the plate is: chunks (sentences) finished of all of them;
    /// `nil` before its first update.
    public internal(set) var translationChunks: (done: Int, total: Int)?
    /// The model the user chose (or the default when none was chosen).
    public internal(set) var selectedModel: ModelChoice?
    /// The model the engine holds; its prompt format is the one used.
    public internal(set) var loadedModel: ModelChoice?
    /// A model that was downloaded and then loaded, until the front end has told the system so
    /// (`MainScreen.readyNotice`, `.readyNoticeHandled`).
    public internal(set) var readyNoticeModel: ModelChoice?
    /// Text from another app waits for the model to be ready, then translates.
    public internal(set) var translateWhenReady = false
    /// Imports performed and not yet ended (a model file being copied and checked), counted
    /// from the moment `perform` returns, so a front end knows how long a lent file is read.
    public internal(set) var importsUnderWay = 0
    /// The format the models page's form adds a file with (`.setImportFormat`).
    public internal(set) var importFormat: PromptFormat = .sourceTarget
    /// Why the last file the models page's form added was refused, until the next one.
    public internal(set) var importError: String?
    /// Whether the history page shows the favourites only (`.filterHistory`).
    public internal(set) var historyShowsOnlyOlin = false
    /// Things the user should know that are not errors of an action (a damaged settings file set aside).
    public internal(set) var notices: [String] = []
    /// lipu Linku's Toki Pona words (`.useWordList`), or nil before a front end gives them.
    public internal(set) var wordList: WordList?
    /// The ticks of the words landing (`MainScreen.haptics`).
    public internal(set) var haptic = HapticTicker()
    @ObservationIgnored private let hapticStart = ContinuousClock.now
    /// The dictionary entry shown (`.lookUpWord`), until it is closed.
    public internal(set) var lookedUpWord: WordEntry?
    /// A short-lived message under the plates, until the next action.
    public internal(set) var flash: Flash?

    /// The short-lived messages under the plates.
    public enum Flash: Equatable, Sendable {
        /// The translation went to the clipboard.
        case copied
        /// No font on the device can draw sitelen pona (the family that was looked for).
        case sitelenPonaFontMissing(String)
    }
    /// Figures of the last translation.
    public private(set) var lastStats: TranslationStats?

    /// The models on the device, the catalog and the download under way.
    public let library: ModelLibrary
    /// Settings and history.
    public let preferences: Preferences

    // MARK: - Dependencies

    @ObservationIgnored let engineLoader: any EngineLoading
    @ObservationIgnored let availableMemory: @Sendable () -> Int64?
    @ObservationIgnored private let clock: any Clock<Duration>

    @ObservationIgnored var engine: (any TranslationEngine)? {
        didSet { if shortOfMemory { engine?.setShortOfMemory(true) } }
    }
    /// What the platform last said of the device's memory (`setShortOfMemory`).
    @ObservationIgnored private(set) var shortOfMemory = false
    @ObservationIgnored private var translationTask: Task<Void, Never>?
    @ObservationIgnored private var translationID = 0
    /// The source text of the running translation.
    private var translatingSource: String?
    @ObservationIgnored private var typingTask: Task<Void, Never>?
    @ObservationIgnored var loadID = 0
    /// Loads started and not yet ended, and who waits for them to end (`close`).
    @ObservationIgnored var loadsInFlight = 0
    @ObservationIgnored var loadWaiters: [CheckedContinuation<Void, Never>] = []
    @ObservationIgnored var settingSourceQuietly = false
    /// Work that `perform` started and that has not ended, by id; the ids `run` waits for.
    @ObservationIgnored var work: [Int: Task<ActionOutcome, Never>] = [:]
    @ObservationIgnored var nextWorkID = 0
    @ObservationIgnored var awaited: Set<Int> = []
    /// Whether a font family can be drawn with on this device (the front end knows).
    @ObservationIgnored public let isFontInstalled: @MainActor (String) -> Bool

    /// - Parameters:
    ///   - store: where models live.
    ///   - engineLoader: loads a model file: `IloTokiEngineLive.LiveEngineLoader` runs llama.cpp.
    ///   - downloader: downloads catalog models: `IloTokiDownloadLive.ModelDownloader` over
    ///     HTTP (one that checks each finished file with the engine loader before installing it).
    ///   - availableMemory: bytes the system can give a model now (`MemAvailable`).
    ///   - access: a Hugging Face mirror (`HF_ENDPOINT`) and token (`HF_TOKEN`), if any.
    ///   - clock: times the pause before translating while typing (tests pass one they move by hand).
    ///   - isFontInstalled: whether a font family can be drawn with on this device.
    public init(
        store: ModelStore,
        engineLoader: any EngineLoading,
        downloader: any ModelDownloading,
        availableMemory: @escaping @Sendable () -> Int64? = { DeviceMemory.available() },
        access: HubAccess = HubAccess(),
        clock: any Clock<Duration> = ContinuousClock(),
        isFontInstalled: @escaping @MainActor (String) -> Bool = { _ in true }
    ) {
        self.clock = clock
        self.isFontInstalled = isFontInstalled
        self.engineLoader = engineLoader
        self.availableMemory = availableMemory
        library = ModelLibrary(store: store, downloader: downloader, access: access)
        preferences = Preferences(directories: store.directories, canWrite: store.homeProblem == nil)
        preferences.onProblem = { [weak self] in self?.note($0) }
        library.onEvent = { [weak self] event, entry in await self?.follow(event, for: entry) }
    }

    /// Where models live.
    public var store: ModelStore { library.store }
    public var settings: AppSettings { preferences.settings }
    public var history: History { preferences.history }
    public var activeDownload: DownloadStatus? { library.activeDownload }

    // MARK: - Derived state

    /// The state of the model used for translating (`ModelState.derive`).
    public var modelState: ModelState {
        // What the library last read from the disk: this is read on every drawing.
        let status = modelToDownload.flatMap { entry in library.statuses.first { $0.entry.id == entry.id } }
        return ModelState.derive(
            load: loadPhase, download: library.activeDownload?.phase, stored: status?.state, total: status?.expectedBytes)
    }

    /// Whether a newer model than the one in use is in the catalog (shown as a dot, never forced).
    public var newerModelAvailable: Bool {
        guard let current = loadedModel ?? selectedModel, current.isDeprecated else { return false }
        // Once the newer one is chosen (downloading, or waiting to), the dot has done its work.
        return store.catalog.defaultEntry.map { !$0.deprecated && $0.id != current.id && $0.id != selectedModel?.id } ?? false
    }

    /// Phrases to offer while the source plate is empty.
    public var samplePhrases: [String] {
        sourceText.isEmpty ? SamplePhrases.phrases(in: direction.source) : []
    }

    /// The catalog model the slab would download.
    public var modelToDownload: CatalogEntry? {
        selectedModel?.catalogEntry ?? store.catalog.defaultEntry
    }

    public var slabAction: SlabAction {
        if translationState == .translating, sourceText == translatingSource { return .stop }
        switch modelState {
        case .ready: return .translate
        case .loading, .verifying, .downloading: return .busy
        case .failed:
            if let entry = modelToDownload, engine == nil, !library.isAvailable(.catalog(entry)) {
                return library.state(of: entry) == .notInstalled ? .download(entry) : .resumeDownload(entry)
            }
            return .retry
        case .notDownloaded: return modelToDownload.map(SlabAction.download) ?? .busy
        case .paused: return modelToDownload.map(SlabAction.resumeDownload) ?? .busy
        }
    }

    /// What runs the models, for the About page.
    public var engineDescription: String { engineLoader.backendDescription }

    /// The platform says the device is short of memory, or no longer: iOS's memory warning,
    /// Android's `onTrimMemory`, Linux's memory pressure (`MemoryPressureWatch`). The engine
    /// keeps less of the model in memory while it is (the same translations), and so does an
    /// engine loaded later.
    public func setShortOfMemory(_ short: Bool) {
        shortOfMemory = short
        engine?.setShortOfMemory(short)
    }

    /// Whether the model licence must be shown (and accepted) before the first download.
    public var needsLicenceAcceptance: Bool { !settings.acceptedModelLicence }

    /// Which plate shows Toki Pona (and so the script pill).
    var tokiPonaIsOnSource: Bool { direction.isFromTokiPona }

    // MARK: - Translating

    /// The slab: translates the source text. While that same text is translating it stops
    /// instead; after the text was edited it starts the new translation (the running one is
    /// cancelled).
    func translate() {
        if translationState == .translating, sourceText == translatingSource {
            stopTranslation()
            return
        }
        startTranslation()
    }

    /// Stops the running translation; what arrived stays on the plate, nothing is recorded.
    func stopTranslation() {
        guard translationState == .translating else { return }
        cancelTranslation()
        translationState = .idle
    }

    func cancelTranslation() {
        translationID += 1
        translationTask?.cancel()
        translationTask = nil
        typingTask?.cancel()
        if translationState == .translating { translationState = .idle }
    }

    /// Text from another app: onto the source plate (quietly: translating as you type does not
    /// start a second translation), translated now or once the model is ready.
    func receive(_ text: String) {
        lookedUpWord = nil
        settingSourceQuietly = true
        sourceText = text
        settingSourceQuietly = false
        if modelState == .ready {
            translateWhenReady = false
            startTranslation()
        } else {
            cancelTranslation()
            targetText = ""
            translateWhenReady = true
        }
    }

    /// What a model that has just loaded does first: the text another app sent meanwhile.
    func modelBecameReady() {
        guard translateWhenReady else { return }
        translateWhenReady = false
        startTranslation()
    }

    private func startTranslation() {
        guard modelState == .ready else { return }
        let text = sourceText
        guard !TranslationPrompt.prepare(text).isEmpty else { return }
        flash = nil
        do {
            setDirection(try direction(for: text))
        } catch {
            cancelTranslation()
            targetText = ""
            translationState = .failed(error.localizedDescription)
            return
        }
        cancelTranslation()
        translationID += 1
        let id = translationID
        targetText = ""
        translationState = .translating
        translationChunks = nil
        translatingSource = text
        let stream = translation(of: text, direction: direction)
        translationTask = Task { [weak self] in
            do {
                for try await progress in stream {
                    guard let self, self.translationID == id else { return }
                    // A piece that adds text ticks (UTF-8 lengths: counted at once, unlike characters).
                    if progress.text.utf8.count > self.targetText.utf8.count {
                        self.haptic.landed(at: ContinuousClock.now - self.hapticStart)
                    }
                    self.targetText = progress.text
                    if self.translationChunks?.done != progress.finishedChunks || self.translationChunks?.total != progress.chunkCount {
                        self.translationChunks = (progress.finishedChunks, progress.chunkCount)
                    }
                    if progress.isFinal { self.translationState = .done }
                }
            } catch is CancellationError {
                return
            } catch {
                guard let self, self.translationID == id else { return }
                self.translationState = .failed(error.localizedDescription)
            }
        }
    }

    /// Streams the translation of `text` with the loaded model, and records it in the history
    /// once it is complete. The slab uses it; so does the command line.
    /// - Parameter bySentence: sentence by sentence or each line whole; `nil` follows the
    ///   setting.
    /// - Throws (in the stream): `TranslatorModelError.noModel` without a loaded model,
    ///   `TranslationError` for text that cannot be translated, engine errors.
    public func translation(
        of text: String, direction: TranslationDirection, bySentence: Bool? = nil, outputLimit: Int? = nil
    ) -> AsyncThrowingStream<TranslationProgress, Error> {
        Translator.progress(
            ofOnlyText: translations(of: [TextToTranslate(text, direction: direction)], bySentence: bySentence, outputLimit: outputLimit))
    }

    /// Streams the translations of several texts made together (their sentences share the
    /// engine's decoding steps), and records each in the history once it is complete: what
    /// the command line does with the lines of standard input.
    /// - Parameter outputLimit: at most this many tokens per sentence's translation (below the
    ///   usual bound), when given.
    public func translations(of texts: [TextToTranslate], bySentence: Bool? = nil, outputLimit: Int? = nil) -> AsyncThrowingStream<
        TextUpdate, Error
    > {
        guard let engine, let model = loadedModel else {
            return AsyncThrowingStream { $0.finish(throwing: TranslatorModelError.noModel) }
        }
        let translator = Translator(
            engine: engine, format: model.format, bySentence: bySentence ?? settings.translateBySentence, outputLimit: outputLimit)
        let upstream = translator.translateAll(texts)
        return AsyncThrowingStream { continuation in
            let task = Task { [weak self] in
                do {
                    for try await update in upstream {
                        if case .progress(let index, let progress) = update, progress.isFinal, texts[index].keepsInHistory,
                            !Task.isCancelled
                        {
                            self?.lastStats = progress.stats
                            let text = texts[index]
                            self?.preferences.record(
                                HistoryEntry(direction: text.direction, source: text.text, result: progress.text, modelID: model.id))
                        }
                        continuation.yield(update)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Opens a translation that takes texts while it runs (`Translator.openTranslation`), with
    /// the loaded model: what a server translates its requests with, each joining the ones
    /// being translated. A text that keeps its history is recorded when it is done.
    /// - Throws: `TranslatorModelError.noModel` when no model is loaded.
    public func openTranslation() throws -> (updates: TextUpdates, feed: TranslationFeed) {
        guard let engine, let model = loadedModel else { throw TranslatorModelError.noModel }
        let translator = Translator(engine: engine, format: model.format, bySentence: settings.translateBySentence)
        return translator.openTranslation { [weak self] text, progress in
            guard text.keepsInHistory else { return }
            Task { @MainActor in
                self?.lastStats = progress.stats
                self?.preferences.record(
                    HistoryEntry(direction: text.direction, source: text.text, result: progress.text, modelID: model.id))
            }
        }
    }

    /// How long typing must pause before translating as you type starts.
    public static let typingPause = Duration.milliseconds(450)

    private func sourceDidChange(from old: String) {
        guard !settingSourceQuietly, sourceText != old else { return }
        flash = nil
        typingTask?.cancel()
        guard settings.translateAsYouType, modelState == .ready else { return }
        let clock = clock
        typingTask = Task { [weak self] in
            // Typing pauses this long before the translation starts.
            try? await clock.sleep(for: Self.typingPause)
            guard !Task.isCancelled, let self else { return }
            self.startTranslation()
        }
    }

    /// The swap knob: the translation becomes the source, the direction turns round, and the
    /// old source becomes its translation. The script stays with the Toki Pona text.
    func swap() {
        cancelTranslation()
        let oldSource = sourceText
        let translation = targetText
        setDirection(direction.swapped)
        settingSourceQuietly = true
        sourceText = translation.isEmpty ? oldSource : translation
        settingSourceQuietly = false
        targetText = translation.isEmpty ? "" : oldSource
        translationState = targetText.isEmpty ? .idle : .done
    }

    /// The direction `text` asks for, following the one used last where the text does not
    /// say (see `LanguageDetector.direction(for:last:)`).
    /// - Throws: `DirectionError` for text in a script none of the four languages use.
    public func direction(for text: String) throws -> TranslationDirection {
        try LanguageDetector.direction(for: text, last: direction)
    }

    /// Sets the direction (a language picker); the plates keep their text.
    func setDirection(_ direction: TranslationDirection) {
        guard direction != self.direction else { return }
        self.direction = direction
        preferences.change { $0.lastDirection = direction }
    }

    /// The pill on the Toki Pona plate: Latin ↔ sitelen pona. Without any font that can draw
    /// sitelen pona the text stays Latin and a message says how to get one.
    func flipScript() {
        let family = settings.sitelenPonaFamily(isInstalled: isFontInstalled)
        if tokiPonaScript == .latin, !isFontInstalled(family) {
            flash = .sitelenPonaFontMissing(family)
            return
        }
        tokiPonaScript = tokiPonaScript == .latin ? .sitelenPona : .latin
    }
}
