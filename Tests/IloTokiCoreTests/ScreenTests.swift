import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCore

/// What every screen says, state by state, as the plain values a front end draws: the proof
/// that a front end needs no `if` about the app's state of its own. No GTK here.
@MainActor
@Suite struct ScreenTests {
    static let current = CatalogEntry(
        id: "current", displayName: "Current", quantization: "Q8_0",
        url: URL(string: "https://huggingface.co/x/current/resolve/main/current.gguf")!, bytes: 1_000_000,
        format: .sourceTarget, deprecated: false, sha256: nil)
    static let old = CatalogEntry(
        id: "old", displayName: "Old", quantization: "Q6_K",
        url: URL(string: "https://huggingface.co/x/old/resolve/main/old.gguf")!, bytes: 2_000_000,
        format: .queryAnswer, deprecated: true, sha256: nil)
    static let strings = UIStrings(language: .english)

    let app = ScriptedApp("screen", catalog: ModelCatalog(entries: [current, old]))
    var home: TemporaryDirectory { app.home }
    var downloader: ScriptedDownloader { app.downloader }

    func model(
        engine: ScriptedEngine = ScriptedEngine { _ in [" mi", " moku"] },
        load: (@Sendable (String) async throws -> Void)? = nil, isFontInstalled: @escaping @MainActor (String) -> Bool = { _ in true }
    ) -> TranslatorModel {
        app.model(engine: engine, load: load, isFontInstalled: isFontInstalled)
    }

    func install(_ entry: CatalogEntry) throws { try app.install(entry) }

    func screen(_ model: TranslatorModel) -> MainScreen { MainScreen(model: model, strings: Self.strings) }

    // MARK: - The main screen, state by state

    @Test func noModel() async {
        let model = model()
        await model.launch()
        let shown = screen(model)
        #expect(shown.target.text == Self.strings[.modelNotDownloaded])
        #expect(shown.target.isMessage && !shown.target.canCopy && !shown.target.inSitelenPona)
        #expect(shown.slab == MainScreen.Slab(title: "Download the model · 1 MB", isEnabled: true, action: .download(Self.current)))
        #expect(shown.header.modelLine == "Not downloaded")
        #expect(shown.header.download == nil)
        #expect(model.perform(.pressSlab) == .showLicence(LicenceOffer(entry: Self.current)))  // the licence comes first
        #expect(downloader.requests.isEmpty)
    }

    @Test func theFirstRunHintSaysWhereTheTranslatorComesFromOnce() async throws {
        let model = model()
        await model.launch()
        let hint = try #require(screen(model).hint)
        #expect(hint.text == "The translator comes from huggingface.co, once: press the button below.")
        #expect(hint.dismissTitle == "Got it")
        #expect(MainScreen(model: model, strings: UIStrings(language: .vietnamese)).hint?.text.contains("huggingface.co") == true)
        model.perform(.dismissFirstRunHint)
        #expect(screen(model).hint == nil)
        await model.flushWrites()
        // Dismissed for good: the next launch does not show it.
        let again = self.model()
        await again.launch()
        #expect(screen(again).hint == nil)

        // Through a mirror it names the mirror; a download that begins also ends it.
        let mirrored = TranslatorModel(
            store: ModelStore(directories: AppDirectories(home: home.file("mirrored")), catalog: ModelCatalog(entries: [Self.current])),
            engineLoader: ScriptedEngineLoader { _ in ScriptedEngine { _ in [" mi"] } }, downloader: ScriptedDownloader(),
            availableMemory: { 1 << 40 }, access: HubAccess(mirror: "https://hf-mirror.example"))
        await mirrored.launch()
        #expect(screen(mirrored).hint?.text.contains("from hf-mirror.example, once") == true)
        mirrored.perform(.acceptLicence)
        mirrored.perform(.download(id: Self.current.id))
        #expect(screen(mirrored).hint == nil)
    }

    @Test func downloadingPausedVerifyingAndLoading() async throws {
        let gate = AsyncGate()
        let model = model { _ in await gate.wait() }
        await model.launch()
        model.perform(.acceptLicence)
        model.perform(.download(id: Self.current.id))
        downloader.progress(bytes: 250_000)
        #expect(await eventually { screen(model).header.download?.fraction == 0.25 }, "downloading")
        var shown = screen(model)
        #expect(shown.target.text == "Downloading the model… 25%")
        #expect(shown.header.download == MainScreen.DownloadControl(isRunning: true, label: "Pause", fraction: 0.25))
        #expect(shown.slab == MainScreen.Slab(title: "One moment…", isEnabled: false, action: .busy))

        #expect(model.perform(.toggleDownload) == .done)  // the header's control pauses
        #expect(await eventually { if case .paused = model.modelState { true } else { false } }, "paused")
        shown = self.screen(model)
        #expect(shown.target.text == "Download paused at 25%")
        #expect(shown.header.download == MainScreen.DownloadControl(isRunning: false, label: "Resume the download · 25%", fraction: 0.25))
        #expect(shown.slab == MainScreen.Slab(title: "Resume the download · 25%", isEnabled: true, action: .resumeDownload(Self.current)))

        #expect(model.perform(.pressSlab) == .done)  // resumes: the licence was accepted
        try downloader.install(contents: Data(count: Int(Self.current.bytes!)))
        #expect(await eventually { model.modelState == .loading }, "loading")
        shown = self.screen(model)
        #expect(shown.target.text == "Loading the model…")
        #expect(shown.header.modelLine == "Loading the model…")
        #expect(shown.header.download == nil)
        await gate.open()
        #expect(await eventually { model.modelState == .ready }, "ready")
        #expect(self.screen(model).header.modelLine == "Current")
    }

    @Test func readyTranslatingDoneAndCopied() async throws {
        try install(Self.current)
        let clock = ManualClock()
        let model = app.model(
            engine: ScriptedEngine(delay: .milliseconds(20), clock: clock) { _ in [" mi", " olin", " e sina"] }, clock: clock)
        await model.launch()
        var shown = screen(model)
        #expect(shown.slab == MainScreen.Slab(title: "Translate", isEnabled: false, action: .translate))  // nothing to translate
        #expect(shown.target.text.isEmpty && shown.target.isMessage)
        #expect(!shown.source.samplePhrases.isEmpty)
        #expect(shown.source.pill == "sitelen pona" && shown.target.pill == nil)  // Toki Pona is the source
        #expect(!shown.source.choosesLanguage && shown.target.choosesLanguage)

        model.perform(.setSourceText(text: "I love you"))
        #expect(self.screen(model).slab.isEnabled)
        #expect(self.screen(model).source.samplePhrases.isEmpty)
        model.perform(.pressSlab)
        #expect(self.screen(model).slab == MainScreen.Slab(title: "Stop", isEnabled: true, action: .stop))
        #expect(await eventually { clock.sleepers == 1 }, "the engine waits for its first piece")
        clock.advance(by: .milliseconds(20))
        #expect(await eventually { model.targetText == "mi" }, "streaming")
        let streaming = self.screen(model).target
        #expect(streaming.text == "mi" && !streaming.isMessage && streaming.pill == "sitelen pona")
        for _ in 1...2 {
            #expect(await eventually { clock.sleepers == 1 }, "the engine waits for its next piece")
            clock.advance(by: .milliseconds(20))
        }
        #expect(await eventually { model.translationState == .done }, "done")
        shown = self.screen(model)
        #expect(shown.target.text == "mi olin e sina" && shown.target.canCopy)
        #expect(shown.target.pill == "sitelen pona" && shown.source.pill == nil)  // English → Toki Pona: the pill moved

        #expect(model.perform(.copy) == .copy(text: "mi olin e sina"))
        #expect(self.screen(model).notice == "Copied")
        model.perform(.setSourceText(text: "I love you!"))
        #expect(self.screen(model).notice == nil)  // the next action clears it
    }

    @Test func theTranslationIsSharedAsTextAndNothingIsSharedBeforeOne() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        #expect(await eventually { model.modelState == .ready })
        #expect(model.perform(.share) == .failed(reason: "There is no translation to share."))
        model.perform(.setSourceText(text: "I love you"))
        model.perform(.translate)
        #expect(await eventually { model.translationState == .done })
        #expect(model.perform(.share) == .share(text: "mi moku"))
        #expect(screen(model).shareLabel == "Share the translation" && screen(model).target.canCopy)
    }

    @Test func sitelenPonaFollowsTheTokiPonaText() async throws {
        try install(Self.current)
        let model = model(engine: ScriptedEngine { _ in [" I", " eat"] })
        await model.launch()
        model.perform(.setSourceText(text: "mi moku"))
        model.perform(.flipScript)
        #expect(screen(model).source.inSitelenPona)
        #expect(screen(model).source.pill == "Latin")
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "done")
        model.perform(.swap)
        let shown = screen(model)
        #expect(shown.target.inSitelenPona && !shown.source.inSitelenPona)
        #expect(shown.target.text == "mi moku")
    }

    @Test func withoutAnyFontForSitelenPonaThePillSaysHowToGetOne() async throws {
        try install(Self.current)
        let model = model(isFontInstalled: { _ in false })
        await model.launch()
        model.perform(.flipScript)
        #expect(model.tokiPonaScript == .latin)
        #expect(screen(model).notice == Self.strings(.sitelenFontMissing, "sitelen seli kiwen asuki"))
    }

    @Test func failures() async throws {
        try install(Self.current)
        struct Broken: Error, LocalizedError { var errorDescription: String? { "it is broken" } }
        let model = model { _ in throw Broken() }
        await model.launch()
        var shown = screen(model)
        #expect(shown.target.text == "The model cannot be used: it is broken")
        #expect(shown.slab == MainScreen.Slab(title: "Try again", isEnabled: true, action: .retry))
        #expect(shown.header.modelLine == "Try again")

        let working = self.model(engine: ScriptedEngine { _ in [] })
        await working.launch()
        working.perform(.setSourceText(text: "こんにちは"))
        working.perform(.pressSlab)
        shown = self.screen(working)
        #expect(shown.target.isMessage && shown.target.text.hasPrefix("Could not translate: ilo toki cannot translate this text"))
        working.perform(.setSourceText(text: "mi moku"))
        working.perform(.pressSlab)
        #expect(await eventually { working.translationState == .done }, "done")
        #expect(self.screen(working).target.text == "(no translation)")
    }

    @Test func aNewerModelIsADot() async throws {
        try install(Self.old)
        let model = model()
        await model.launch()
        #expect(screen(model).header.showsNewerModelDot)
        #expect(screen(model).header.modelLine == "Old")
    }

    /// With this release's catalog: someone who has 1.1 sees that 1.3 is out, and the models
    /// page offers it at its estimated size until the Hub gives the exact one.
    @Test func peopleWithOneOneSeeThatOneThreeIsOut() async throws {
        let app = ScriptedApp("screen-release", catalog: .standard)
        let installed = try #require(ModelCatalog.standard.entry(id: "milmmt-46-1b-v1-1-q8-0"))
        try app.install(installed)
        let model = app.model(engine: ScriptedEngine { _ in [" mi"] })
        await model.launch()
        let shown = screen(model)
        #expect(shown.header.showsNewerModelDot)
        #expect(shown.header.modelLine == "ilo-toki-1.1-MiLMMT-46-1b")
        let page = ModelsPage(model: model, strings: Self.strings)
        let newest = try #require(page.rows.first)
        #expect(newest.id == "milmmt-46-1b-v1-3-q8-0" && !newest.isDeprecated)
        #expect(newest.facts.hasPrefix("≈\u{00A0}1.39 GB · Q8_0 · "))
        #expect(page.rows.first { $0.id == installed.id }?.isDeprecated == true)
    }

    @Test func noticesAreShownUnderThePlates() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try "{ damaged".write(to: home.file("settings.json"), atomically: true, encoding: .utf8)
        let model = model()
        await model.launch()
        #expect(screen(model).notice?.contains("settings.json was set aside") == true)
    }

    // MARK: - What every front end used to decide for itself

    @Test func coreGivesThePlacesTheSlabIconTheLanguageChoicesAndTheLook() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        let shown = screen(model)
        #expect(shown.header.places.map(\.place) == [.history, .models, .settings, .about])
        #expect(shown.header.places.map(\.title) == ["History", "Models", "Settings", "About"])
        #expect(shown.header.places.map(\.icon) == [.history, .models, .settings, .about])
        #expect(shown.slab.icon == .translate)
        // toki pona → English: the Toki Pona plate offers nothing to choose, the other plate the three languages.
        #expect(shown.source.languageChoices.isEmpty && shown.source.languageTitle == "toki pona")
        #expect(shown.target.languageChoices.map(\.title) == ["English", "Русский", "Tiếng Việt"])
        #expect(shown.target.languageChoices.filter(\.isChosen).map(\.language) == [.english])
        model.perform(.setOtherLanguage(language: .vietnamese))
        #expect(screen(model).target.languageChoices.filter(\.isChosen).map(\.language) == [.vietnamese])
        // The theme, resolved against what the system prefers.
        #expect(shown.theme == .system && shown.appearance == .light)
        #expect(MainScreen(model: model, strings: Self.strings, systemPrefersDark: true).appearance == .dark)
        model.perform(.setTheme(theme: .light))
        #expect(MainScreen(model: model, strings: Self.strings, systemPrefersDark: true).appearance == .light)
        // The slab's icon follows what it does.
        let icons = [TranslatorModel.SlabAction.stop, .download(Self.current), .resumeDownload(Self.current), .busy, .retry].map {
            MainScreen.Slab(title: "", isEnabled: true, action: $0).icon
        }
        #expect(icons == [.pause, .download, .download, .translate, .translate])
    }

    @Test func theTokiPonaPlateAsksForAPlainKeyboardAndTheOtherForItsLanguagesOwn() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        // toki pona → English: Toki Pona is typed.
        var shown = screen(model)
        #expect(shown.source.keyboard == MainScreen.Keyboard(for: .tokiPona))
        #expect(!shown.source.keyboard.corrects && !shown.source.keyboard.capitalizesSentences)
        #expect(shown.source.keyboard.asciiOnly && shown.source.keyboard.languageTag == nil)
        // Swapped, and the other language made Russian: Russian is typed, with the usual help.
        model.perform(.swap)
        model.perform(.setOtherLanguage(language: .russian))
        shown = screen(model)
        #expect(shown.source.language == .russian)
        #expect(shown.source.keyboard.corrects && shown.source.keyboard.capitalizesSentences)
        #expect(!shown.source.keyboard.asciiOnly && shown.source.keyboard.languageTag == "ru")
        #expect(shown.target.keyboard == MainScreen.Keyboard(for: .tokiPona))
        for language in Language.others {
            #expect(MainScreen.Keyboard(for: language).languageTag == language.code)
        }
    }

    @Test func aTokiPonaWordIsLookedUpInLipuLinku() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        // Before a front end gives the list: a clear reason, nothing shown.
        #expect(model.perform(.lookUpWord(word: "moku")) == .failed(reason: "The dictionary of Toki Pona words is not here."))
        let file = home.file("words.json")
        try Data(WordListTests.fixture.utf8).write(to: file)
        #expect(model.perform(.useWordList(path: home.file("none.json").path)) != .done)
        #expect(model.perform(.useWordList(path: file.path)) == .done)

        model.perform(.setSourceText(text: "mi moku e kili. kijetesantakalu li moku."))
        var shown = screen(model)
        #expect(shown.source.dictionaryWords == ["moku", "kijetesantakalu"])
        #expect(shown.target.dictionaryWords.isEmpty)
        #expect(shown.word == nil)

        #expect(model.perform(.lookUpWord(word: "Moku,")) == .done)
        shown = screen(model)
        let card = try #require(shown.word)
        #expect(card.word == "moku" && card.glyph == "\u{F1936}" && card.definition == "eat, drink; food")
        #expect(card.usage == "core word" && card.seeAlso == ["pan", "telo"] && card.seeAlsoTitle == "See also")
        #expect(card.credit == "From lipu Linku (CC BY-SA 4.0). Definitions are in English.")
        // In Russian the words around it are Russian; the definition stays lipu Linku's English.
        let russian = try #require(MainScreen(model: model, strings: UIStrings(language: .russian)).word)
        #expect(russian.usage == "основное слово" && russian.definition == "eat, drink; food")

        // A word lipu Linku does not have says so and leaves the entry shown as it was.
        #expect(model.perform(.lookUpWord(word: "pan")) == .failed(reason: "“pan” is not in lipu Linku's dictionary of Toki Pona words."))
        #expect(screen(model).word?.word == "moku")
        model.perform(.closeWord)
        #expect(screen(model).word == nil)
        #expect(
            AboutPage(model: model, strings: Self.strings).licences.contains { $0.contains("lipu Linku") && $0.contains("CC BY-SA 4.0") })
    }

    @Test func everyControlOfTheMainScreenHasANameForScreenReaders() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        for strings in [Self.strings, UIStrings(language: .russian), UIStrings(language: .vietnamese), UIStrings(language: .tokiPona)] {
            let shown = MainScreen(model: model, strings: strings)
            let names =
                [
                    shown.source.languageLabel, shown.target.languageLabel, shown.source.textLabel, shown.target.textLabel,
                    shown.source.pillLabel, shown.swapLabel, shown.copyLabel, shown.slab.title, shown.header.newerModelLabel,
                ] + shown.header.places.map(\.title)
            #expect(!names.contains { $0.isEmpty }, "\(strings.language)")
            #expect(Set(names).count == names.count, "two controls share a name in \(strings.language): \(names)")
            // The value a chooser announces is the language chosen.
            #expect(shown.target.languageTitle == shown.target.language.endonym)
        }
        let shown = screen(model)
        #expect(shown.source.scriptName == "Latin")
        model.perform(.flipScript)
        #expect(screen(model).source.scriptName == "sitelen pona")
    }

    @Test func anImportCopiesChecksAddsAndCleansUpOnFailure() async throws {
        let picked = home.file("picked/mine.gguf")
        try FileManager.default.createDirectory(at: picked.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("GGUF".utf8).write(to: picked)
        let model = model()
        model.prepare()
        let request = ModelImport(path: picked.path, format: .queryAnswer, copiesIntoApp: true)
        guard case .added(let added) = await model.run(.importModel(request)) else {
            Issue.record("not added")
            return
        }
        #expect(added.path == model.library.importedDirectory.appendingPathComponent("mine.gguf").path)
        #expect(added.name == "mine" && added.format == .queryAnswer)
        #expect(FileManager.default.contentsEqual(atPath: added.path, andPath: picked.path))
        #expect(model.library.sideloaded.map(\.id) == [added.id])

        // A file the engine refuses: nothing is added and no copy is left behind.
        struct Refused: Error {}
        let refusing = TranslatorModel(
            store: app.store(), engineLoader: ScriptedEngineLoader { _ in throw Refused() }, downloader: ScriptedDownloader())
        refusing.prepare()
        let other = home.file("picked/other.gguf")
        try Data("GGUF".utf8).write(to: other)
        guard case .failed = await refusing.run(.importModel(ModelImport(path: other.path, format: .sourceTarget, copiesIntoApp: true)))
        else {
            Issue.record("a refused file was added")
            return
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: refusing.library.importedDirectory.path).sorted()
        #expect(left == ["mine.gguf"])
        #expect(refusing.library.sideloaded.map(\.id) == [added.id])
    }

    // MARK: - The other places

    @Test func theModelListOffersWhatEachModelAllows() async throws {
        try install(Self.old)
        let model = model()
        await model.launch()
        model.perform(.acceptLicence)
        model.perform(.download(id: Self.current.id))
        downloader.progress(bytes: 100_000)
        #expect(await eventually { model.activeDownload?.fraction == 0.1 }, "downloading")
        var page = ModelsPage(model: model, strings: Self.strings)
        try #require(page.rows.map(\.name) == ["Current", "Old"])
        #expect(page.rows[0].facts == "1 MB · Q8_0 · Not downloaded")
        #expect(page.rows[0].buttons.map(\.action) == [.pauseDownload])
        #expect(page.rows[0].buttons.map(\.accessibleName) == ["Pause, Current"])
        #expect(page.rows[1].facts == "2 MB · Q6_K · Installed · Older model")
        #expect(page.rows[1].buttons.map(\.action) == [nil, .delete(id: "old")])

        model.perform(.pauseDownload)
        #expect(await eventually { if case .paused? = model.activeDownload?.phase { true } else { false } }, "paused")
        page = ModelsPage(model: model, strings: Self.strings)
        try #require(page.rows.count == 2)
        #expect(page.rows[0].facts == "1 MB · Q8_0 · 10% downloaded")
        #expect(page.rows[0].buttons.map(\.action) == [.download(id: "current"), .delete(id: "current")])

        let added = home.file("mine.gguf")
        try Data("GGUF".utf8).write(to: added)
        guard case .added = await model.run(.importModel(ModelImport(path: added.path, format: .queryAnswer, name: "Mine"))) else {
            Issue.record("the file was not added")
            return
        }
        page = ModelsPage(model: model, strings: Self.strings)
        #expect(page.rows.last?.name == "Mine")
        #expect(page.rows.last?.facts.hasSuffix("· query/answer") == true)
        try FileManager.default.removeItem(at: added)
        model.library.refresh()
        page = ModelsPage(model: model, strings: Self.strings)
        #expect(page.rows.last?.facts.hasSuffix("The file is missing") == true)
        #expect(page.rows.last?.buttons.count == 1)  // delete only: a missing file cannot be used
    }

    @Test func theModelsPageSaysWhatTheModelsTakeWhatIsFreeAndWhatDeletingFrees() async throws {
        try install(Self.old)
        let model = model()
        await model.launch()
        // A file copied into the app (the app's to delete) and one added where it lies (the person's).
        let picked = home.file("picked/copied.gguf")
        try FileManager.default.createDirectory(at: picked.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("GGUF".utf8 + Data(count: 2_996)).write(to: picked)
        guard
            case .added(let copy) = await model.run(
                .importModel(ModelImport(path: picked.path, format: .sourceTarget, copiesIntoApp: true))),
            case .added(let inPlace) = await model.run(
                .importModel(ModelImport(path: picked.path, format: .sourceTarget, name: "In place")))
        else {
            Issue.record("the files were not added")
            return
        }
        #expect(model.library.isCopiedIntoApp(copy) && !model.library.isCopiedIntoApp(inPlace))

        var page = ModelsPage(model: model, strings: Self.strings)
        let free = try #require(model.library.freeBytes)
        #expect(free > 0)
        #expect(page.storage == "Models take 2 MB · \(ByteSize.text(free)) free on this device")
        #expect(model.library.modelBytes == 2_003_000)
        let deletes = page.rows.compactMap { row in row.buttons.first { if case .delete = $0.action { true } else { false } } }
        try #require(deletes.map(\.title) == ["Delete · 2 MB", "Delete · 3 KB", "Delete"])
        #expect(deletes[0].accessibleName == "Delete · 2 MB, Old")
        #expect(
            ModelsPage(model: model, strings: UIStrings(language: .russian)).storage.hasPrefix(
                "Модели занимают 2 MB · свободно на устройстве: "))

        // Deleting the copy deletes its file; forgetting the other leaves the person's file where it is.
        #expect(await model.run(.delete(id: copy.id)) == .done)
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        #expect(await model.run(.delete(id: inPlace.id)) == .done)
        #expect(FileManager.default.fileExists(atPath: picked.path))
        page = ModelsPage(model: model, strings: Self.strings)
        #expect(page.storage.hasPrefix("Models take 2 MB · "))
        #expect(model.library.modelBytes == 2_000_000)
    }

    @Test func theHistoryPage() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        var page = HistoryPage(model: model, strings: Self.strings)
        #expect(page.empty == "No translations yet." && page.rows.isEmpty && page.note == nil && !page.onlyOlin)
        model.perform(.setSourceText(text: "I eat"))
        model.perform(.pressSlab)
        #expect(await eventually { model.translationState == .done }, "done")
        page = HistoryPage(model: model, strings: Self.strings)
        try #require(page.rows.map(\.line) == ["en→tok  I eat → mi moku"])
        #expect(page.rows[0].meta.hasPrefix("English → toki pona · "))
        #expect(!page.rows[0].isOlin && page.rows[0].olinLabel == "Mark as favourite")
        // The filter is the model's state: every front end, and every page drawn after, shows it.
        model.perform(.filterHistory(onlyOlin: true))
        #expect(HistoryPage(model: model, strings: Self.strings).onlyOlin)
        #expect(HistoryPage(model: model, strings: Self.strings).empty != nil)
        model.perform(.setOlin(id: page.rows[0].id, olin: true))
        model.perform(.flipScript)
        page = HistoryPage(model: model, strings: Self.strings)
        try #require(page.rows.count == 1)
        #expect(page.rows[0].isOlin && page.rows[0].resultInSitelenPona && !page.rows[0].sourceInSitelenPona)
        model.perform(.filterHistory(onlyOlin: false))
        #expect(!HistoryPage(model: model, strings: Self.strings).onlyOlin)
        model.perform(.setKeepHistory(on: false))
        #expect(HistoryPage(model: model, strings: Self.strings).note == "History is switched off in the settings.")
    }

    @Test func theHistoryIsShownByDayInTheUILanguage() async throws {
        try install(Self.current)
        let model = model()
        await model.launch()
        let utc = TimeZone(identifier: "UTC") ?? .current
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let now = Date(timeIntervalSince1970: 1_796_126_400)  // 2026-12-01 12:00 UTC
        for (hoursAgo, source) in [(75.0, "three days ago"), (26.0, "yesterday"), (13.0, "yesterday night"), (1.0, "this morning")] {
            let entry = HistoryEntry(
                direction: .englishToTokiPona, source: source, result: "ok", modelID: "current",
                date: now.addingTimeInterval(-hoursAgo * 3600))
            model.preferences.changeHistory { $0.add(entry) }
        }
        let page = HistoryPage(model: model, strings: Self.strings, now: now, calendar: calendar)
        #expect(page.days.map(\.title) == ["Today", "Yesterday", "28 November 2026"])
        #expect(page.days.map(\.id) == ["2026-12-01", "2026-11-30", "2026-11-28"])
        try #require(page.days.map { $0.rows.map(\.source) } == [["this morning"], ["yesterday night", "yesterday"], ["three days ago"]])
        #expect(page.rows.count == 4)
        #expect(page.days[0].rows[0].meta == "English → toki pona · 11:00")
        let russian = HistoryPage(model: model, strings: UIStrings(language: .russian), now: now, calendar: calendar)
        #expect(russian.days.map(\.title).prefix(2) == ["Сегодня", "Вчера"])
        try #require(russian.days.count == 3)
        #expect(russian.days[2].title.contains("ноября"))
        let vietnamese = HistoryPage(model: model, strings: UIStrings(language: .vietnamese), now: now, calendar: calendar)
        #expect(vietnamese.days.map(\.title).prefix(2) == ["Hôm nay", "Hôm qua"])
    }

    @Test func theSettingsPage() async {
        let model = model(isFontInstalled: { $0 != "nasin-nanpa" })
        await model.launch()
        model.perform(.setTheme(theme: .dark))
        var page = SettingsPage(model: model, strings: Self.strings)
        #expect(page.keepHistory.isOn && !page.translateAsYouType.isOn)
        #expect(page.themes.filter(\.isChosen).map(\.theme) == [.dark])
        #expect(page.fontFamily == "sitelen seli kiwen asuki" && page.fontNote == nil)
        model.perform(.setSitelenPonaFont(family: "nasin-nanpa"))
        page = SettingsPage(model: model, strings: Self.strings)
        #expect(page.fontFamily == "sitelen seli kiwen asuki")
        #expect(page.fontNote == Self.strings(.sitelenFontChosenMissing, "nasin-nanpa"))
        model.perform(.setSitelenPonaFont(family: "sitelen seli kiwen asuki"))
        #expect(model.settings.sitelenPonaFont == nil)
    }

    @Test(arguments: InterfaceLanguage.allCases)
    func theAboutPageInEveryLanguage(language: InterfaceLanguage) async throws {
        let model = model()
        let strings = UIStrings(language: language)
        let page = AboutPage(model: model, strings: strings)
        try #require(page.licences.count == 6)
        #expect(page.licences[0] == strings[.licenceApp])
        #expect(page.licences[2].contains("Gemma Terms of Use"))
        #expect(page.licences.allSatisfy { !$0.isEmpty })
        #expect(page.versionLine.hasPrefix("ilo toki \(AboutPage.version)"))
    }

    /// What the Android app reads through the bridge: the same values, as JSON.
    @Test func everyScreenAsJSON() async throws {
        let model = model()
        await model.launch()
        func object(_ json: String) throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        }
        let main = try object(ScreenJSON.encode(screen(model)))
        let target = try #require(main["target"] as? [String: Any])
        #expect(target["text"] as? String == Self.strings[.modelNotDownloaded] && target["isMessage"] as? Bool == true)
        let slab = try #require(main["slab"] as? [String: Any])
        #expect(slab["title"] as? String == screen(model).slab.title)
        let action = try #require(slab["action"] as? [String: Any])
        #expect(action.keys.first == "download")
        let models = try object(ScreenJSON.encode(ModelsPage(model: model, strings: Self.strings)))
        let rows = try #require(models["rows"] as? [[String: Any]])
        #expect(rows.map { $0["id"] as? String } == ["current", "old"])
        #expect((models["formats"] as? [[String: Any]])?.compactMap { $0["format"] as? String } == ["sourceTarget", "queryAnswer"])
        _ = try object(ScreenJSON.encode(HistoryPage(model: model, strings: Self.strings)))
        let settings = try object(ScreenJSON.encode(SettingsPage(model: model, strings: Self.strings)))
        #expect((settings["themes"] as? [[String: Any]])?.count == 3)
        let about = try object(ScreenJSON.encode(AboutPage(model: model, strings: Self.strings)))
        #expect((about["licences"] as? [String])?.count == 6)
        let strings = try object(ScreenJSON.strings(UIStrings(language: .russian)))
        #expect(strings.count == UIText.allCases.count + Language.allCases.count)
        #expect(strings["translate"] as? String == UIStrings(language: .russian)[.translate])
        #expect(strings["language.tok"] as? String == "toki pona")
    }

    @Test func percentagesDatesAndSizesInOnePlace() {
        #expect(Formatting(language: .english).percent(0.256) == "25%")
        #expect(Formatting(language: .russian).percent(0.5) == "50\u{00A0}%")
        #expect(Formatting(language: .vietnamese).percent(nil) == "0%")
        #expect(Formatting(language: .english).duration(milliseconds: 830) == "830 ms")
        #expect(Formatting(language: .english).duration(milliseconds: 2400) == "2.4 s")
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(Formatting(language: .russian).dateTime(date) != Formatting(language: .english).dateTime(date))
    }
}

/// A gate a test opens by hand: for holding a load until the test has looked at the screen.
actor AsyncGate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        if isOpen { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters.removeAll()
    }
}
