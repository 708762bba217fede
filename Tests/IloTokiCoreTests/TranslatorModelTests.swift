import Foundation
import IloTokiCore
import IloTokiTestSupport
import Observation
import Testing

/// The app model with scripted seams: a scripted engine and a downloader driven by hand.
@MainActor
@Suite struct TranslatorModelTests {
    /// Two small catalog models: a current one and a deprecated one (the files are 4 bytes: "GGUF").
    static let current = CatalogEntry(
        id: "current", displayName: "Current", quantization: "Q8_0",
        url: URL(string: "https://huggingface.co/x/current/resolve/main/current.gguf")!, bytes: 4,
        format: .sourceTarget, deprecated: false, sha256: nil)
    static let old = CatalogEntry(
        id: "old", displayName: "Old", quantization: "Q6_K",
        url: URL(string: "https://huggingface.co/x/old/resolve/main/old.gguf")!, bytes: 4,
        format: .queryAnswer, deprecated: true, sha256: nil)
    static let catalog = ModelCatalog(entries: [current, old])

    let home = TemporaryDirectory("app")
    let downloader = ScriptedDownloader()

    func store() throws -> ModelStore {
        ModelStore(directories: AppDirectories(home: home.url), catalog: Self.catalog)
    }

    func install(_ entry: CatalogEntry) throws {
        let store = try store()
        try Data("GGUF".utf8).write(to: store.fileURL(for: entry))
    }

    /// An engine that answers "<source> (translated)" in pieces, with a pause before each.
    static func echoEngine(delay: Duration = .milliseconds(1)) -> ScriptedEngine {
        ScriptedEngine(delay: delay) { source in [" " + source, " (translated)"] }
    }

    func model(
        engine: ScriptedEngine = echoEngine(), memory: Int64? = 1 << 40, loads: LoadCounter = LoadCounter(),
        clock: ManualClock = ManualClock()
    ) throws -> TranslatorModel {
        TranslatorModel(
            store: try store(),
            engineLoader: ScriptedEngineLoader { path in
                await loads.add(path)
                return engine
            },
            downloader: downloader,
            availableMemory: { memory },
            clock: clock)
    }

    actor LoadCounter {
        private(set) var paths: [String] = []
        func add(_ path: String) { paths.append(path) }
    }

    /// Waits (up to 5 s) until `condition` holds.
    func eventually(_ what: Comment, _ condition: @MainActor () -> Bool) async {
        for _ in 0..<500 {
            if condition() { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("timed out waiting: \(what)")
    }

    // MARK: - Launch and download

    @Test func withNoModelTheTargetSaysSoAndTheSlabOffersTheDownload() async throws {
        let model = try model()
        await model.launch()
        #expect(model.modelState == .notDownloaded)
        #expect(model.slabAction == .download(Self.current))
        #expect(model.selectedModel?.id == "current")
        #expect(downloader.requests.isEmpty)  // nothing downloads on its own
        model.sourceText = "mi moku"
        model.translate()
        #expect(model.translationState == .idle)
        #expect(model.targetText.isEmpty)
    }

    @Test func slabDownloadsPausesResumesLoadsAndTranslates() async throws {
        let model = try model()
        await model.launch()

        // The first time, the licence comes first.
        #expect(model.needsLicenceAcceptance)
        #expect(model.startDownload() == false)
        #expect(downloader.requests.isEmpty)
        model.acceptModelLicence()
        #expect(model.startDownload())
        #expect(downloader.requests.count == 1)
        #expect(downloader.requests[0].url == Self.current.url)
        #expect(model.slabAction == .busy)

        downloader.progress(bytes: 2)
        await eventually("progress") { model.modelState == .downloading(DownloadProgress(bytes: 2, total: 4, bytesPerSecond: 1_000_000)) }
        #expect(model.activeDownload?.fraction == 0.5)

        model.pauseDownload()
        await eventually("paused") { if case .paused = model.modelState { true } else { false } }
        #expect(model.slabAction == .resumeDownload(Self.current))

        #expect(model.startDownload())
        #expect(downloader.requests.count == 2)
        await eventually("downloading again") { if case .downloading = model.modelState { true } else { false } }
        try downloader.install()
        await eventually("ready") { model.modelState == .ready }
        #expect(model.loadedModel?.id == "current")
        #expect(model.slabAction == .translate)
        #expect(model.activeDownload == nil)

        model.sourceText = "jan li moku e kili"
        model.translate()
        #expect(model.translationState == .translating)
        #expect(model.slabAction == .stop)
        await eventually("translated") { model.translationState == .done }
        #expect(model.targetText == "jan li moku e kili (translated)")
        #expect(model.history.entries.map(\.result) == ["jan li moku e kili (translated)"])
    }

    @Test func launchLoadsTheInstalledModel() async throws {
        try install(Self.current)
        let loads = LoadCounter()
        let model = try model(loads: loads)
        await model.launch()
        #expect(model.modelState == .ready)
        #expect(model.loadedModel?.id == "current")
        #expect(await loads.paths == [try store().fileURL(for: Self.current).path])
        #expect(!model.newerModelAvailable)
    }

    @Test func aDeprecatedModelStillTranslatesWithANewerOneOffered() async throws {
        try install(Self.old)
        let model = try model()
        await model.launch()
        #expect(model.loadedModel?.id == "old")
        #expect(model.modelState == .ready)
        #expect(model.newerModelAvailable)
        #expect(model.slabAction == .translate)
        #expect(downloader.requests.isEmpty)
    }

    @Test func thePromptFormatIsTheLoadedModels() async throws {
        try install(Self.old)  // a queryAnswer model
        let engine = Self.echoEngine()
        let model = try model(engine: engine)
        await model.launch()
        model.sourceText = "mi moku"
        model.translate()
        await eventually("translated") { model.translationState == .done }
        #expect(engine.prompts.first?.prompt == "Translate Toki Pona to English.\nQuery: mi moku\nAnswer:")
    }

    @Test func aModelThatCannotFitInMemoryIsRefusedPlainly() async throws {
        try install(Self.current)
        let model = try model(memory: 1000)
        await model.launch()
        guard case .failed(let reason) = model.modelState else {
            Issue.record("expected a failure, got \(model.modelState)")
            return
        }
        #expect(reason.contains("memory"))
        #expect(reason.contains("Current"))
    }

    @Test func aModelThatFailsToLoadIsReportedAndCanBeRetriedOrDeleted() async throws {
        try install(Self.current)
        let model = TranslatorModel(
            store: try store(),
            engineLoader: ScriptedEngineLoader { path in throw TranslationError.invalidText },
            downloader: downloader, availableMemory: { 1 << 40 })
        await model.launch()
        guard case .failed = model.modelState else {
            Issue.record("expected a failure, got \(model.modelState)")
            return
        }
        #expect(model.slabAction == .retry)
        await model.deleteModel(id: "current")
        #expect(model.modelState == .notDownloaded)
        #expect(try store().state(of: Self.current) == .notInstalled)
    }

    @Test func switchingModelsUnloadsTheOldOne() async throws {
        try install(Self.current)
        try install(Self.old)
        let loads = LoadCounter()
        let model = try model(loads: loads)
        await model.launch()
        #expect(model.loadedModel?.id == "current")
        await model.selectModel(id: "old")
        #expect(model.loadedModel?.id == "old")
        #expect(model.modelState == .ready)
        #expect(model.settings.selectedModelID == "old")
        #expect(await loads.paths.count == 2)
    }

    // MARK: - Translating

    @Test func aSecondTranslationStopsTheFirstAndOnlyTheSecondIsKept() async throws {
        try install(Self.current)
        let engine = ScriptedEngine(delay: .milliseconds(30)) { source in
            source == "first" ? Array(repeating: " one", count: 50) : [" two", " done"]
        }
        let model = try model(engine: engine)
        await model.launch()
        model.sourceText = "first"
        model.translate()
        await eventually("the first streams") { !model.targetText.isEmpty }
        model.sourceText = "second"
        model.translate()
        await eventually("the second is done") { model.translationState == .done }
        #expect(model.targetText == "two done")
        // Once the first generation has ended nothing of it can arrive: and nothing did.
        await eventually("both generations ended") { engine.endedCompletions == 2 }
        #expect(model.targetText == "two done")
        #expect(model.history.entries.map(\.source) == ["second"])
    }

    @Test func stoppingKeepsWhatArrivedAndRecordsNothing() async throws {
        try install(Self.current)
        let engine = ScriptedEngine(delay: .milliseconds(20)) { _ in Array(repeating: " word", count: 100) }
        let model = try model(engine: engine)
        await model.launch()
        model.sourceText = "mi moku"
        model.translate()
        await eventually("streaming") { !model.targetText.isEmpty }
        model.translate()  // the slab stops a running translation
        #expect(model.translationState == .idle)
        let kept = model.targetText
        await eventually("the generation ended") { engine.endedCompletions == 1 }
        #expect(model.targetText == kept)
        #expect(model.history.entries.isEmpty)
    }

    @Test func theTargetStreamsAndEveryChangeIsObservable() async throws {
        try install(Self.current)
        let model = try model(engine: ScriptedEngine(delay: .milliseconds(5)) { _ in [" a", " b", " c", " d"] })
        await model.launch()
        model.sourceText = "x"

        let seen = TargetObserver(model)
        model.translate()
        await eventually("done") { model.translationState == .done }
        await eventually("the observer saw the last change") { seen.values.last == "a b c d" }
        #expect(seen.values.contains("a"))
    }

    /// Records every value of the target plate as observers see it.
    @MainActor final class TargetObserver {
        let model: TranslatorModel
        var values: [String] = []

        init(_ model: TranslatorModel) {
            self.model = model
            arm()
        }

        func arm() {
            withObservationTracking {
                _ = model.targetText
            } onChange: { [weak self] in
                // Fires once, before the change: read on the next turn, then re-arm.
                Task { @MainActor in
                    guard let self else { return }
                    self.values.append(self.model.targetText)
                    self.arm()
                }
            }
        }
    }

    @Test func multiLineTextIsTranslatedLineByLine() async throws {
        try install(Self.current)
        let engine = Self.echoEngine()
        let model = try model(engine: engine)
        await model.launch()
        model.sourceText = "mi moku.\n\nsina lape."
        model.translate()
        await eventually("done") { model.translationState == .done }
        #expect(engine.prompts.map(\.sourceText) == ["mi moku.", "sina lape."])
        #expect(model.targetText == "mi moku. (translated)\n\nsina lape. (translated)")
    }

    @Test func editingDoesNotTranslateUnlessAskedTo() async throws {
        try install(Self.current)
        let engine = Self.echoEngine()
        let clock = ManualClock()
        let model = try model(engine: engine, clock: clock)
        await model.launch()
        model.sourceText = "mi moku"
        clock.advance(by: .seconds(10))
        await Task.yield()
        #expect(clock.sleepers == 0)  // nothing waits to translate
        #expect(engine.prompts.isEmpty)

        model.setTranslateAsYouType(true)
        model.sourceText = "mi lape"
        await eventually("the pause began") { clock.sleepers == 1 }
        clock.advance(by: TranslatorModel.typingPause - .milliseconds(1))
        await Task.yield()
        #expect(engine.prompts.isEmpty)  // not before the pause is over
        clock.advance(by: .milliseconds(1))
        await eventually("translated while typing") { model.translationState == .done }
        #expect(model.targetText == "mi lape (translated)")
    }

    @Test func textInTheOtherLanguageTurnsTheDirection() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        #expect(model.direction == .tokiPonaToEnglish)
        model.sourceText = "Я тебя люблю"
        model.translate()
        #expect(model.direction == .toTokiPona(from: .russian))
        await eventually("done") { model.translationState == .done }
    }

    @Test func swapMovesTextAndDirectionAndTheScriptFollowsTokiPona() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        model.sourceText = "jan li moku"
        model.translate()
        await eventually("done") { model.translationState == .done }
        model.flipScript()
        #expect(model.tokiPonaScript == .sitelenPona)
        #expect(model.tokiPonaIsOnSource)

        model.swap()
        #expect(model.direction == .englishToTokiPona)
        #expect(model.sourceText == "jan li moku (translated)")
        #expect(model.targetText == "jan li moku")
        // The Toki Pona text is now on the target plate, still in sitelen pona.
        #expect(!model.tokiPonaIsOnSource)
        #expect(model.tokiPonaScript == .sitelenPona)
        #expect(model.settings.lastDirection == .englishToTokiPona)
    }

    @Test func samplePhrasesFollowTheSourceLanguage() async throws {
        let model = try model()
        await model.launch()
        #expect(model.samplePhrases == SamplePhrases.phrases(in: .tokiPona))
        model.setOtherLanguage(.vietnamese)
        model.swap()
        #expect(model.samplePhrases == SamplePhrases.phrases(in: .vietnamese))
        model.useSamplePhrase("Tôi yêu bạn.")
        #expect(model.sourceText == "Tôi yêu bạn.")
        #expect(model.samplePhrases.isEmpty)
    }

    // MARK: - History

    @Test func historyIsCappedAndFavouritesSurviveTheCapAndClearing() {
        var history = History()
        let first = HistoryEntry(direction: .tokiPonaToEnglish, source: "first", result: "1", modelID: "m", date: Date(timeIntervalSince1970: 0))
        history.add(first)
        history.setOlin(true, for: first.id)
        for index in 1...250 {
            history.add(HistoryEntry(direction: .tokiPonaToEnglish, source: "s\(index)", result: "r", modelID: "m", date: Date(timeIntervalSince1970: Double(index))))
        }
        #expect(history.entries.filter { !$0.olin }.count == History.cap)
        #expect(history.entries.first?.source == "s250")  // newest first
        #expect(history.entries.contains { $0.id == first.id })  // the favourite survived the cap
        history.clear()
        #expect(history.entries.map(\.id) == [first.id])
    }

    @Test func historyOffStoresNothingNew() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        model.setKeepHistory(false)
        model.sourceText = "mi moku"
        model.translate()
        await eventually("done") { model.translationState == .done }
        #expect(model.history.entries.isEmpty)
    }

    @Test func historyAndSettingsPersistAcrossLaunches() async throws {
        try install(Self.current)
        let first = try model()
        await first.launch()
        first.setOtherLanguage(.russian)
        first.sourceText = "mi moku"
        first.translate()
        await eventually("done") { first.translationState == .done }
        let id = try #require(first.history.entries.first?.id)
        first.setOlin(true, for: id)
        await first.flushWrites()

        let second = try model()
        await second.launch()
        #expect(second.direction == .fromTokiPona(to: .russian))
        #expect(second.history.entries.first?.olin == true)
        #expect(second.history.entries.first?.source == "mi moku")
        let attributes = try FileManager.default.attributesOfItem(atPath: try store().directories.historyFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test func damagedHistoryAndSettingsAreSetAsideAndTheAppStillStarts() async throws {
        let directories = try store().directories
        try "{ not json".write(to: directories.settingsFile, atomically: true, encoding: .utf8)
        try Data([0xFF, 0xFE, 0x00]).write(to: directories.historyFile)
        try install(Self.current)
        let model = try model()
        await model.launch()
        #expect(model.modelState == .ready)
        #expect(model.history.entries.isEmpty)
        #expect(model.settings == AppSettings())
        #expect(model.notices.count == 2)
        let names = try FileManager.default.contentsOfDirectory(atPath: directories.home.path)
        #expect(names.contains { $0.hasPrefix("settings.json.damaged-") })
        #expect(names.contains { $0.hasPrefix("history.json.damaged-") })
        // And the app writes fresh files from here on.
        model.setKeepHistory(false)
        await model.flushWrites()
        #expect(SettingsStore(url: directories.settingsFile).load().problems.isEmpty)
    }
}
