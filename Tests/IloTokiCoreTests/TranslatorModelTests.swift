import Foundation
import IloTokiTestSupport
import Observation
import Testing

@testable import IloTokiCore

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

    let app = ScriptedApp("app", catalog: catalog)
    var home: TemporaryDirectory { app.home }
    var downloader: ScriptedDownloader { app.downloader }

    func store() throws -> ModelStore { app.store() }

    func install(_ entry: CatalogEntry) throws { try app.install(entry) }

    /// An engine that answers "<source> (translated)" in pieces, with a pause before each.
    static func echoEngine(delay: Duration = .milliseconds(1)) -> ScriptedEngine {
        ScriptedEngine(delay: delay) { source in [" " + source, " (translated)"] }
    }

    func model(
        engine: ScriptedEngine = echoEngine(), memory: Int64? = 1 << 40, loads: LoadCounter = LoadCounter(),
        clock: ManualClock = ManualClock()
    ) throws -> TranslatorModel {
        app.model(engine: engine, memory: memory, clock: clock) { path in await loads.add(path) }
    }

    actor LoadCounter {
        private(set) var paths: [String] = []
        func add(_ path: String) { paths.append(path) }
    }

    // MARK: - Launch and download

    @Test func withNoModelTheTargetSaysSoAndTheSlabOffersTheDownload() async throws {
        let model = try model()
        await model.launch()
        #expect(model.modelState == .notDownloaded)
        #expect(model.slabAction == .download(Self.current))
        #expect(model.selectedModel?.id == "current")
        #expect(downloader.requests.isEmpty)  // nothing downloads on its own
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.pressSlab)
        #expect(model.translationState == .idle)
        #expect(model.targetText.isEmpty)
    }

    /// What every front end's licence sheet performs on acceptance: one action that
    /// remembers the licence and starts the model's download.
    @Test func acceptingTheLicenceSheetDownloadsTheModelItWasShownFor() async throws {
        let model = try model()
        await model.launch()
        guard case .showLicence(let offer) = model.perform(.pressSlab) else {
            Issue.record("the licence comes first")
            return
        }
        #expect(downloader.requests.isEmpty)
        #expect(model.perform(.acceptLicenceAndDownload(id: offer.entry.id)) == .done)
        #expect(!model.needsLicenceAcceptance)
        try #require(downloader.requests.count == 1)
        #expect(downloader.requests[0].url == Self.current.url)
        #expect(model.perform(.acceptLicenceAndDownload(id: "no-such-model")) != .done, "an unknown model is said")
    }

    @Test func slabDownloadsPausesResumesLoadsAndTranslates() async throws {
        let model = try model()
        await model.launch()

        // The first time, the licence comes first.
        #expect(model.needsLicenceAcceptance)
        #expect(model.perform(.pressSlab) == .showLicence(LicenceOffer(entry: Self.current)))
        #expect(downloader.requests.isEmpty)
        model.perform(.acceptLicence)
        #expect(model.perform(.pressSlab) == .done)
        try #require(downloader.requests.count == 1)
        #expect(downloader.requests[0].url == Self.current.url)
        #expect(model.slabAction == .busy)

        downloader.progress(bytes: 2)
        #expect(
            await eventually { model.modelState == .downloading(DownloadProgress(bytes: 2, total: 4, bytesPerSecond: 1_000_000)) },
            "progress")
        #expect(model.activeDownload?.fraction == 0.5)

        model.perform(.pauseDownload)
        #expect(await eventually { if case .paused = model.modelState { true } else { false } }, "paused")
        #expect(model.slabAction == .resumeDownload(Self.current))

        #expect(model.perform(.pressSlab) == .done)
        #expect(downloader.requests.count == 2)
        #expect(await eventually { if case .downloading = model.modelState { true } else { false } }, "downloading again")
        try downloader.install()
        #expect(await eventually { model.modelState == .ready }, "ready")
        #expect(model.loadedModel?.id == "current")
        #expect(model.slabAction == .translate)
        #expect(model.activeDownload == nil)

        model.perform(.setSourceText(text: "jan li moku e kili"))
        model.perform(.pressSlab)
        #expect(model.translationState == .translating)
        #expect(model.slabAction == .stop)
        #expect(await eventually { model.translationState == .done }, "translated")
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

    /// The platform's word on the device's memory reaches the engine, and an engine loaded
    /// after it was said.
    @Test func theDevicesMemoryIsPassedToTheEngineLoadedNowOrLater() async throws {
        try install(Self.current)
        let engine = Self.echoEngine()
        let model = try model(engine: engine)
        model.setShortOfMemory(true)
        await model.launch()
        #expect(model.modelState == .ready)
        #expect(engine.memoryWords == [true], "said before the load: the loaded engine is told")
        model.setShortOfMemory(false)
        #expect(engine.memoryWords == [true, false])
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
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "translated")
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
        await model.run(.delete(id: "current"))
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
        await model.run(.use(id: "old"))
        #expect(model.loadedModel?.id == "old")
        #expect(model.modelState == .ready)
        #expect(model.settings.selectedModelID == "old")
        #expect(await loads.paths.count == 2)
    }

    // MARK: - A stand-in while the chosen model downloads

    @Test func theModelOnTheDeviceAnswersWhileTheChosenOneDownloads() async throws {
        try install(Self.old)  // a queryAnswer model
        let engine = Self.echoEngine()
        let loads = LoadCounter()
        let model = try model(engine: engine, loads: loads)
        await model.launch()
        #expect(model.newerModelAvailable)
        model.perform(.acceptLicence)
        model.perform(.download(id: Self.current.id))
        // The download makes the newer one the choice; the old one answers meanwhile, and says so.
        #expect(model.selectedModel?.id == "current" && model.settings.selectedModelID == "current")
        #expect(model.awaitedModel?.id == "current")
        #expect(model.modelState == .ready && model.slabAction == .translate)
        #expect(!model.newerModelAvailable, "the dot has done its work once the newer one is on its way")
        let header = MainScreen(model: model, strings: UIStrings(language: .english)).header
        #expect(header.modelLine == "Old")
        #expect(header.standIn == "Answering until Current is here")
        #expect(header.download != nil)

        model.perform(.setDirection(direction: .tokiPonaToEnglish))
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "translated by the stand-in")
        // The prompt is in the format of the model that answers, not the chosen one's.
        #expect(engine.prompts.last?.prompt == "Translate Toki Pona to English.\nQuery: mi moku\nAnswer:")
        #expect(model.history.entries.first?.modelID == "old")

        // Once it is here, the chosen model takes over; the stand-in line goes.
        try downloader.install()
        #expect(await eventually { model.loadedModel?.id == "current" }, "the chosen model loaded")
        #expect(model.awaitedModel == nil)
        #expect(MainScreen(model: model, strings: UIStrings(language: .english)).header.standIn == nil)
        #expect(await loads.paths.count == 2)
    }

    @Test func aPausedDownloadKeepsItsChoiceAcrossLaunches() async throws {
        try install(Self.old)
        let first = try model()
        await first.launch()
        first.perform(.acceptLicence)
        first.perform(.download(id: Self.current.id))
        downloader.progress(bytes: 2)
        first.perform(.pauseDownload)
        #expect(await eventually { if case .paused? = first.activeDownload?.phase { true } else { false } }, "paused")
        await first.flushWrites()
        try Data("GG".utf8).write(to: try store().partURL(for: Self.current))

        let again = try model()
        await again.launch()
        #expect(again.selectedModel?.id == "current", "a partial download is on its way, not gone")
        #expect(again.loadedModel?.id == "old" && again.awaitedModel?.id == "current")
    }

    @Test func whenTheChosenModelIsGoneTheNewestOnTheDeviceIsChosen() async throws {
        try install(Self.current)
        try install(Self.old)
        let model = try model()
        await model.launch()
        await model.run(.use(id: "old"))
        #expect(model.settings.selectedModelID == "old")
        await model.run(.delete(id: "old"))
        #expect(model.selectedModel?.id == "current")
        #expect(model.settings.selectedModelID == "current")
        #expect(model.loadedModel?.id == "current")

        // A file that went while the app was closed: the next launch falls back too.
        await model.run(.use(id: "current"))
        await model.flushWrites()
        try install(Self.old)
        try FileManager.default.removeItem(at: try store().fileURL(for: Self.current))
        let again = try self.model()
        await again.launch()
        #expect(again.selectedModel?.id == "old" && again.loadedModel?.id == "old")
        #expect(again.awaitedModel == nil)
    }

    // MARK: - From other apps, and the ready notice

    @Test func textFromAnotherAppIsDetectedAndTranslatedAtOnce() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        model.perform(.setDirection(direction: .tokiPonaToEnglish))
        #expect(model.perform(.translateIncoming(text: "I love you.")) == .showMain)
        #expect(model.sourceText == "I love you.")
        #expect(await eventually { model.translationState == .done }, "translated")
        #expect(model.direction == .englishToTokiPona, "the direction follows the text")
        #expect(model.targetText == "I love you. (translated)")
        #expect(model.history.entries.count == 1)
    }

    @Test func textThatArrivesBeforeTheModelIsReadyWaitsForIt() async throws {
        let model = try model()
        await model.launch()  // nothing on the device
        #expect(model.perform(.translateIncoming(text: "mi moku")) == .showMain)
        #expect(model.sourceText == "mi moku" && model.translationState == .idle)
        #expect(MainScreen(model: model, strings: UIStrings(language: .english)).target.text.hasPrefix("The model is not downloaded yet."))
        model.perform(.acceptLicence)
        model.perform(.download(id: Self.current.id))
        try downloader.install()
        #expect(await eventually { model.translationState == .done }, "translated once the model loaded")
        #expect(model.targetText == "mi moku (translated)")
    }

    @Test func theReadyNoticeComesOnceAfterADownloadAndNeverAtLaunch() async throws {
        try install(Self.old)
        let launched = try model()
        await launched.launch()
        #expect(launched.readyNoticeModel == nil, "loading what was already here is not news")

        launched.perform(.acceptLicence)
        launched.perform(.download(id: Self.current.id))
        try downloader.install()
        #expect(await eventually { launched.loadedModel?.id == "current" }, "loaded")
        let notice = try #require(MainScreen(model: launched, strings: UIStrings(language: .english)).readyNotice)
        #expect(notice.title == "The translator is ready")
        #expect(notice.body == "Current is downloaded and loaded. It translates on this device, offline.")
        #expect(MainScreen(model: launched, strings: UIStrings(language: .russian)).readyNotice?.title == "Переводчик готов")
        launched.perform(.readyNoticeHandled)
        #expect(MainScreen(model: launched, strings: UIStrings(language: .english)).readyNotice == nil)
    }

    @Test func aDownloadThatIsNotTheChoiceGivesNoNotice() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        model.perform(.acceptLicence)
        model.perform(.download(id: Self.old.id))
        await model.run(.use(id: Self.current.id))  // changed their mind while it downloads
        try downloader.install()
        #expect(await eventually { model.library.state(of: Self.old) == .installed }, "installed")
        await model.settled()
        #expect(model.loadedModel?.id == "current")
        #expect(model.readyNoticeModel == nil)
    }

    // MARK: - Translating

    /// Lets the scripted engine hand out its next piece: waits until it sleeps on `clock`, then
    /// moves the clock past its pause.
    func nextPiece(_ clock: ManualClock, _ delay: Duration) async {
        #expect(await eventually { clock.sleepers > 0 }, "the engine waits for its next piece")
        clock.advance(by: delay)
    }

    @Test func aSecondTranslationStopsTheFirstAndOnlyTheSecondIsKept() async throws {
        try install(Self.current)
        let clock = ManualClock()
        let engine = ScriptedEngine(delay: .milliseconds(30), clock: clock) { source in
            source == "first" ? Array(repeating: " one", count: 50) : [" two", " done"]
        }
        let model = try model(engine: engine, clock: clock)
        await model.launch()
        model.perform(.setSourceText(text: "first"))
        model.perform(.pressSlab)
        await nextPiece(clock, .milliseconds(30))
        #expect(await eventually { model.targetText == "one" }, "the first streams")
        model.perform(.setSourceText(text: "second"))
        model.perform(.pressSlab)
        // Once the first generation has ended nothing of it can arrive: and nothing did.
        #expect(await eventually { engine.endedCompletions == 1 }, "the first generation ended")
        await nextPiece(clock, .milliseconds(30))
        #expect(await eventually { model.targetText == "two" }, "the second streams")
        await nextPiece(clock, .milliseconds(30))
        #expect(await eventually { model.translationState == .done }, "the second is done")
        #expect(model.targetText == "two done")
        #expect(await eventually { engine.endedCompletions == 2 }, "both generations ended")
        #expect(model.targetText == "two done")
        #expect(model.history.entries.map(\.source) == ["second"])
    }

    @Test func stoppingKeepsWhatArrivedAndRecordsNothing() async throws {
        try install(Self.current)
        let clock = ManualClock()
        let engine = ScriptedEngine(delay: .milliseconds(20), clock: clock) { _ in Array(repeating: " word", count: 100) }
        let model = try model(engine: engine, clock: clock)
        await model.launch()
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.pressSlab)
        for count in 1...3 {
            await nextPiece(clock, .milliseconds(20))
            #expect(await eventually { model.targetText.split(separator: " ").count == count }, "piece \(count)")
        }
        model.perform(.pressSlab)  // the slab stops a running translation
        #expect(model.translationState == .idle)
        #expect(await eventually { engine.endedCompletions == 1 }, "the generation ended")
        #expect(model.targetText == "word word word")
        #expect(model.history.entries.isEmpty)
    }

    @Test func theTargetStreamsAndEveryChangeIsObservable() async throws {
        try install(Self.current)
        let clock = ManualClock()
        let model = try model(
            engine: ScriptedEngine(delay: .milliseconds(5), clock: clock) { _ in [" a", " b", " c", " d"] }, clock: clock)
        await model.launch()
        model.perform(.setSourceText(text: "x"))

        let seen = TargetObserver(model)
        model.perform(.pressSlab)
        for expected in ["a", "a b", "a b c", "a b c d"] {
            await nextPiece(clock, .milliseconds(5))
            #expect(await eventually { seen.values.last == expected }, "the observer saw \(expected)")
        }
        #expect(await eventually { model.translationState == .done }, "done")
        #expect(seen.values.filter { !$0.isEmpty } == ["a", "a b", "a b c", "a b c d"])
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
        model.perform(.setSourceText(text: "mi moku.\n\nsina lape."))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "done")
        #expect(engine.prompts.map(\.sourceText) == ["mi moku.", "sina lape."])
        #expect(model.targetText == "mi moku. (translated)\n\nsina lape. (translated)")
    }

    @Test func editingDoesNotTranslateUnlessAskedTo() async throws {
        try install(Self.current)
        let engine = Self.echoEngine()
        let clock = ManualClock()
        let model = try model(engine: engine, clock: clock)
        await model.launch()
        model.perform(.setSourceText(text: "mi moku"))
        clock.advance(by: .seconds(10))
        await Task.yield()
        #expect(clock.sleepers == 0)  // nothing waits to translate
        #expect(engine.prompts.isEmpty)

        model.perform(.setTranslateAsYouType(on: true))
        model.perform(.setSourceText(text: "mi lape"))
        #expect(await eventually { clock.sleepers == 1 }, "the pause began")
        clock.advance(by: TranslatorModel.typingPause - .milliseconds(1))
        await Task.yield()
        #expect(engine.prompts.isEmpty)  // not before the pause is over
        clock.advance(by: .milliseconds(1))
        #expect(await eventually { model.translationState == .done }, "translated while typing")
        #expect(model.targetText == "mi lape (translated)")
    }

    @Test func textInTheOtherLanguageTurnsTheDirection() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        #expect(model.direction == .tokiPonaToEnglish)
        model.perform(.setSourceText(text: "Я тебя люблю"))
        model.perform(.pressSlab)
        #expect(model.direction == .toTokiPona(from: .russian))
        #expect(await eventually { model.translationState == .done }, "done")
    }

    @Test func swapMovesTextAndDirectionAndTheScriptFollowsTokiPona() async throws {
        try install(Self.current)
        let model = try model()
        await model.launch()
        model.perform(.setSourceText(text: "jan li moku"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "done")
        model.perform(.flipScript)
        #expect(model.tokiPonaScript == .sitelenPona)
        #expect(model.tokiPonaIsOnSource)

        model.perform(.swap)
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
        model.perform(.setOtherLanguage(language: .vietnamese))
        model.perform(.swap)
        #expect(model.samplePhrases == SamplePhrases.phrases(in: .vietnamese))
        model.perform(.useSample(phrase: "Tôi yêu bạn."))
        #expect(model.sourceText == "Tôi yêu bạn.")
        #expect(model.samplePhrases.isEmpty)
    }

    // MARK: - History

    @Test func historyIsCappedAndFavouritesSurviveTheCapAndClearing() {
        var history = History()
        let first = HistoryEntry(
            direction: .tokiPonaToEnglish, source: "first", result: "1", modelID: "m", date: Date(timeIntervalSince1970: 0))
        history.add(first)
        history.setOlin(true, for: first.id)
        for index in 1...250 {
            history.add(
                HistoryEntry(
                    direction: .tokiPonaToEnglish, source: "s\(index)", result: "r", modelID: "m",
                    date: Date(timeIntervalSince1970: Double(index))))
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
        model.perform(.setKeepHistory(on: false))
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "done")
        #expect(model.history.entries.isEmpty)
    }

    @Test func historyAndSettingsPersistAcrossLaunches() async throws {
        try install(Self.current)
        let first = try model()
        await first.launch()
        first.perform(.setOtherLanguage(language: .russian))
        first.perform(.setSourceText(text: "mi moku"))
        first.perform(.pressSlab)
        #expect(await eventually { first.translationState == .done }, "done")
        let id = try #require(first.history.entries.first?.id)
        first.perform(.setOlin(id: id, olin: true))
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
        model.perform(.setKeepHistory(on: false))
        await model.flushWrites()
        #expect(SettingsStore(url: directories.settingsFile).load().problems.isEmpty)
    }
}
