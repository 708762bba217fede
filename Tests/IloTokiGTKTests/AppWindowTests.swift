import CGtk
import Foundation
import IloTokiCore
import IloTokiDesign
import IloTokiGTK
import IloTokiTestSupport
import Testing

/// The GTK app's window, in this process, driven through GTK's own event API (buttons are
/// activated as a click activates them, text goes through the text buffer as typing does).
/// Needs a display: scripts/test.sh runs the tests under Xvfb.
@MainActor
@Suite(.serialized, .exclusiveModelUse) struct AppWindowTests {
    static let strings = UIStrings(language: .english)

    init() throws {
        try GTKTestSupport.start()
    }

    /// Runs GTK's loop (and lets main-actor work run) until `condition` holds.
    @discardableResult
    func pump(_ what: Comment, timeout: Duration = .seconds(60), until condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline {
                Issue.record("timed out: \(what)")
                return false
            }
            while g_main_context_iteration(nil, 0) != 0 {}
            try? await Task.sleep(for: .milliseconds(4))
        }
        return true
    }

    func makeWindow(_ model: TranslatorModel) -> AppWindow {
        let window = AppWindow(application: nil, model: model, strings: Self.strings)
        gtk_window_set_default_size(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self), 420, 820)
        gtk_window_present(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self))
        return window
    }

    /// An app model over `home` whose engine is `engine()` (by default one that answers "ok"
    /// to everything).
    func scriptedModel(
        _ home: TemporaryDirectory, engine: @escaping @Sendable () -> ScriptedEngine = { ScriptedEngine { _ in [" ok"] } }
    ) -> TranslatorModel {
        TranslatorModel(
            store: ModelStore(directories: AppDirectories(home: home.url)),
            engineLoader: ScriptedEngineLoader { _ in engine() }, downloader: ScriptedDownloader(),
            availableMemory: { 1 << 40 }, isFontInstalled: Fonts.has)
    }

    /// Loads the scripted model for this session and waits until the slab offers to translate.
    func useScriptedModel(_ model: TranslatorModel, in window: AppWindow) async {
        await model.launch()
        await model.run(.useFileForSession(path: "/demo/model.gguf", format: .sourceTarget))
        await pump("ready") { model.modelState == .ready && window.slabTitle == "Translate" }
    }

    func close(_ window: AppWindow) {
        gtk_window_destroy(UnsafeMutableRawPointer(window.window).assumingMemoryBound(to: GtkWindow.self))
        while g_main_context_iteration(nil, 0) != 0 {}
    }

    // MARK: - With no model

    @Test func withNoModelTheTargetPlateSaysSoAndTheSlabOffersTheDownload() async throws {
        let home = TemporaryDirectory("gtk-none")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        await pump("the first drawing") { window.slabTitle.contains("1.39 GB") }
        #expect(window.targetPlateText == Self.strings[.modelNotDownloaded])
        #expect(
            window.slabTitle == "Download the model · ≈\u{00A0}1.39 GB",
            "1.3's size is known once the Hub is asked; until then, an estimate")
        #expect(window.visibleJeloSurfaces.count == 1)
    }

    @Test func theFirstRunHintSaysWhereTheTranslatorComesFromUntilItIsDismissed() async throws {
        let home = TemporaryDirectory("gtk-hint")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        await pump("the hint") { window.visibleTexts.contains("The translator comes from huggingface.co, once: press the button below.") }
        #expect(window.visibleButtonTitles.contains("Got it"))
        window.activate(.dismissHint)
        await pump("the hint is gone") { !window.visibleTexts.contains { $0.hasPrefix("The translator comes from") } }
        #expect(model.settings.firstRunHintDone)
    }

    @Test func aChosenFontThatIsNotInstalledFallsBackToTheBundledOne() async throws {
        let home = TemporaryDirectory("gtk-font")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        await model.run(.useFileForSession(path: "/demo/model.gguf", format: .sourceTarget))
        model.perform(.setSitelenPonaFont(family: "no such font family"))
        model.perform(.setDirection(direction: .tokiPonaToEnglish))
        window.activate(.sourcePill)
        // The pill never says "no font": the font that comes with the app draws sitelen pona.
        await pump("sitelen pona") { window.sourceShowsSitelenPona }
        #expect(window.noticeText == nil)
        #expect(model.settings.sitelenPonaFamily(isInstalled: Fonts.has) == Tokens.Font.sitelenPona)
        #expect(AppSettings.bundledSitelenPonaFont == Tokens.Font.sitelenPona)
        // The settings say the chosen font is missing.
        window.show(.settings)
        await pump("settings") { window.place == .settings }
        #expect(window.visibleTexts.contains(Self.strings(.sitelenFontChosenMissing, "no such font family")))
    }

    @Test func entriesTheCommandLineAddsAppearWhenTheHistoryIsShown() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let home = TemporaryDirectory("gtk-shared-history")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        window.show(.history)
        await pump("the empty history") { window.place == .history && window.historyRows.isEmpty }

        // The command line translates while the app runs, on the same home.
        let cli = try await ToolProcess.run(
            ToolProcess.executable("ilotoki"), ["--model", tiny, "--from", "en", "--threads", "1", "from the command line"],
            environment: ["ILOTOKI_HOME": home.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        window.show(.main)
        window.show(.history)
        await pump("the entry from the command line") { window.historyRows.contains { $0.hasPrefix("en→tok  from the command line → ") } }
    }

    @Test func theModelsPageSaysWhatTheModelsTakeAndWhatDeletingFrees() async throws {
        let home = TemporaryDirectory("gtk-storage")
        let model = scriptedModel(home)
        let entry = try #require(model.library.catalog.entries.first)
        let file = model.library.store.fileURL(for: entry)
        try Data("GGUF".utf8 + Data(count: 1_499_996)).write(to: file)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        window.show(.models)
        await pump("the models page") { window.place == .models && window.visibleTexts.contains { $0.hasPrefix("Models take 1.5 MB · ") } }
        #expect(window.visibleTexts.contains { $0.hasSuffix(" free on this device") })
        #expect(window.visibleButtonTitles.contains("Delete · 1.5 MB"))
    }

    @Test func whileTheChosenModelDownloadsTheHeaderSaysWhichOneAnswers() async throws {
        let home = TemporaryDirectory("gtk-stand-in")
        let downloader = ScriptedDownloader()
        let model = TranslatorModel(
            store: ModelStore(directories: AppDirectories(home: home.url)),
            engineLoader: ScriptedEngineLoader { _ in ScriptedEngine { _ in [" ok"] } }, downloader: downloader,
            availableMemory: { 1 << 40 }, isFontInstalled: Fonts.has)
        let window = makeWindow(model)
        defer { close(window) }
        await useScriptedModel(model, in: window)
        let newest = try #require(model.library.catalog.defaultEntry)
        model.perform(.acceptLicence)
        model.perform(.download(id: newest.id))
        downloader.progress(bytes: 1000, total: 4000)
        let line = "Answering until \(newest.displayName) is here"
        await pump("the stand-in line") { window.visibleTexts.contains(line) }
        #expect(window.slabTitle == "Translate", "the model on the device still translates")

        try downloader.install()
        await pump("the chosen model answers") { model.loadedModel?.id == newest.id && !window.visibleTexts.contains(line) }
    }

    // MARK: - Translating

    @Test func typeTranslateSwapFlipAndFindItInTheHistory() async throws {
        // The real model and the real keyboard are AppProcessTests' end-to-end test; here a
        // scripted engine streams three pieces with a pause before each.
        let home = TemporaryDirectory("gtk-translate")
        let model = scriptedModel(home) { ScriptedEngine(delay: .milliseconds(30)) { _ in [" mi", " olin", " e sina"] } }
        let window = makeWindow(model)
        defer { close(window) }
        await useScriptedModel(model, in: window)

        // Toki Pona is typed at first: lowercase, no spelling checker, no completion.
        #expect(window.sourceInputHints == ["no-spellcheck", "lowercase"])

        // Typed English is found to be English and goes into Toki Pona.
        window.type("I love you")
        await pump("the source plate has the text") { model.sourceText == "I love you" }
        window.activate(.slab)
        var drawnWhileTranslating: [String] = []
        await pump("translated") {
            if model.translationState == .translating, !window.targetPlateText.isEmpty, drawnWhileTranslating.last != window.targetPlateText
            {
                drawnWhileTranslating.append(window.targetPlateText)
            }
            return model.translationState == .done
        }
        #expect(window.targetPlateText == "mi olin e sina")
        #expect(model.direction == .englishToTokiPona)
        // English is typed now: the input method may check spelling, complete words and capitalize.
        #expect(window.sourceInputHints == ["spellcheck", "word-completion", "uppercase-sentences"])
        // The plate showed part of the translation while the rest was still coming.
        #expect(drawnWhileTranslating.contains { "mi olin e sina".hasPrefix($0) && $0 != "mi olin e sina" }, "\(drawnWhileTranslating)")
        #expect(window.visibleJeloSurfaces.count == 1)

        // The pill is on the Toki Pona plate (the target); sitelen pona follows the text.
        window.activate(.targetPill)
        await pump("sitelen pona") { window.targetShowsSitelenPona }
        window.activate(.knob)
        await pump("swapped") { model.direction == .tokiPonaToEnglish }
        #expect(window.sourcePlateText == "mi olin e sina")
        #expect(window.targetPlateText == "I love you")
        #expect(window.sourceShowsSitelenPona)
        #expect(window.sourceInputHints == ["no-spellcheck", "lowercase"])

        window.activate(.place(.history))
        await pump("history") { window.place == .history && !window.historyRows.isEmpty }
        #expect(window.historyRows.first == "en→tok  I love you → mi olin e sina")
    }

    @Test func aSelectedTokiPonaWordShowsItsDictionaryEntry() async throws {
        let home = TemporaryDirectory("gtk-words")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await useScriptedModel(model, in: window)
        #expect(model.perform(.useWordList(path: try TestModels.require(TestModels.wordList))) == .done)

        window.type("jan li moku e kili.")
        await pump("the source plate has the text") { model.sourceText == "jan li moku e kili." }
        #expect(window.shownWordEntry == nil)
        window.selectSource(7..<11)  // "moku", as a double click selects it
        await pump("moku's entry") { window.shownWordEntry?.word == "moku" }
        let entry = try #require(window.shownWordEntry)
        #expect(entry.definition.contains("eat") && entry.glyph == "\u{F1936}" && entry.usage == "core word")
        #expect(entry.credit.contains("lipu Linku"))

        // Selecting more than a word, or a word that is not Toki Pona, changes nothing.
        window.selectSource(0..<11)
        window.selectSource(7..<9)
        #expect(window.shownWordEntry?.word == "moku")
        window.selectSource(4..<6)  // "li" is a word too
        await pump("li's entry") { window.shownWordEntry?.word == "li" }
        window.pressWordEntry(seeAlso: nil)
        await pump("closed") { window.shownWordEntry == nil }

        // A "see also" word looks itself up.
        window.selectSource(0..<3)  // "jan"
        await pump("jan's entry") { window.shownWordEntry?.word == "jan" }
        if let other = window.shownWordEntry?.seeAlso.first {
            window.pressWordEntry(seeAlso: other)
            await pump("the see-also word's entry") { window.shownWordEntry?.word == other }
        }
        #expect(window.visibleJeloSurfaces.count == 1)
    }

    @Test func aParagraphsSentencesFillInTogether() async throws {
        // An engine that streams its prompts together, a piece of each in turn, as the live
        // engine's batch does: the target plate shows every sentence growing at once.
        let home = TemporaryDirectory("gtk-paragraph")
        let pieces: [String: [String]] = [
            "I eat fruit.": [" mi", " moku", " e", " kili."], "You sleep!": [" sina", " lape!"],
            "We go home.": [" mi", " mute", " li", " tawa", " tomo."],
        ]
        let model = scriptedModel(home) {
            ScriptedEngine(parallelCompletions: 8, delay: .milliseconds(30)) { source in pieces[source] ?? [" ?"] }
        }
        let window = makeWindow(model)
        defer { close(window) }
        await useScriptedModel(model, in: window)
        window.type("I eat fruit. You sleep!  We go home.")
        await pump("the source plate has the text") { model.sourceText == "I eat fruit. You sleep!  We go home." }
        window.activate(.slab)
        var drawn: [String] = []
        await pump("translated") {
            if model.translationState == .translating, drawn.last != window.targetPlateText { drawn.append(window.targetPlateText) }
            return model.translationState == .done
        }
        #expect(window.targetPlateText == "mi moku e kili. sina lape!  mi mute li tawa tomo.")
        // Early on, each sentence had its first word on the plate before the first was finished.
        #expect(drawn.contains("mi sina mi") || drawn.contains("mi sina  mi"), "\(drawn)")
        window.activate(.place(.history))
        await pump("history") { window.place == .history && !window.historyRows.isEmpty }
        #expect(window.historyRows.count == 1, "the paragraph is one entry")
    }

    @Test func aLongPasteShowsItsProgressUnderTheTargetPlateAndAStopKeepsWhatIsFinished() async throws {
        // One sentence at a time (parallelCompletions 1), each slowly: the bar moves sentence by sentence.
        let home = TemporaryDirectory("gtk-long-paste")
        let model = scriptedModel(home) { ScriptedEngine(delay: .milliseconds(40)) { source in [" (\(source.prefix(6)))", " ok."] } }
        let window = makeWindow(model)
        defer { close(window) }
        await useScriptedModel(model, in: window)
        let text = (1...8).map { "Sentence number \($0) is here." }.joined(separator: " ")
        window.type(text)
        await pump("the source plate has the text") { model.sourceText == text }
        #expect(window.translationBar == nil, "no bar before a translation")
        window.activate(.slab)
        var seen: [Double] = []
        await pump("three sentences done") {
            if let bar = window.translationBar, seen.last != bar.fraction { seen.append(bar.fraction) }
            return (model.translationChunks?.done ?? 0) >= 3
        }
        let bar = try #require(window.translationBar, "the bar shows while the text translates")
        #expect(bar.label.hasPrefix("Sentences translated: ") && bar.label.hasSuffix(" / 8"), "\(bar.label)")
        #expect(seen.count >= 2 && seen == seen.sorted(), "it moves forward: \(seen)")
        // A stop keeps the finished sentences on the plate; the bar goes.
        window.activate(.slab)
        await pump("stopped") { model.translationState == .idle }
        #expect(window.translationBar == nil)
        #expect(window.targetPlateText.hasPrefix("(Senten) ok. (Senten) ok. (Senten) ok."), "\(window.targetPlateText)")
        // A short text shows no bar.
        model.perform(.setSourceText(text: "One. Two."))
        window.activate(.slab)
        await pump("translated") { model.translationState == .done }
        #expect(window.translationBar == nil)
    }

    // MARK: - The look

    @Test func exactlyOneJeloSurfaceInEveryState() async throws {
        let home = TemporaryDirectory("gtk-jelo")
        let model = scriptedModel(home) { ScriptedEngine(delay: .milliseconds(40)) { _ in [" one", " two", " three"] } }
        let window = makeWindow(model)
        defer { close(window) }
        var counted: [String: Int] = [:]
        func count(_ state: String) async {
            // The window redraws on the main loop's next turns; it must settle on one jelo surface.
            await pump("one jelo surface when \(state)", timeout: .seconds(60)) { window.visibleJeloSurfaces.count == 1 }
            counted[state] = window.visibleJeloSurfaces.count
        }
        await model.launch()
        await count("no model")
        await model.run(.useFileForSession(path: "/demo/model.gguf", format: .sourceTarget))
        await count("ready")
        model.perform(.setSourceText(text: "jan li moku"))
        window.activate(.slab)
        await count("translating")
        await pump("done") { model.translationState == .done }
        await count("done")
        for place in AppWindow.Place.allCases where place != .main {
            window.activate(.place(place))
            await count(place.rawValue)
        }
        window.show(.main)
        model.perform(.setTheme(theme: .dark))
        await count("dark")
        for place in AppWindow.Place.allCases where place != .main {
            window.show(place)
            await count("dark \(place.rawValue)")
        }
        #expect(counted.count == 13)
        #expect(counted.values.allSatisfy { $0 == 1 }, "\(counted)")
    }

    @Test func everyIconOnlyButtonHasAnAccessibleName() async throws {
        let home = TemporaryDirectory("gtk-access")
        let model = scriptedModel(home)
        let window = makeWindow(model)
        defer { close(window) }
        await model.launch()
        for place in AppWindow.Place.allCases {
            window.show(place)
            await pump("drawn", timeout: .seconds(5)) { true }
            let unnamed = GTKTestSupport.iconOnlyButtonsWithoutName(in: window.window)
            #expect(unnamed.isEmpty, "\(place): \(unnamed)")
        }
    }
}

/// GTK set-up for tests in this process.
@MainActor
enum GTKTestSupport {
    private static var started = false

    struct MissingFont: Error, CustomStringConvertible {
        let path: String
        var description: String { "The sitelen pona test font is missing: \(path)" }
    }

    struct NoDisplay: Error, CustomStringConvertible {
        var description: String { "GTK needs a display: run the tests under xvfb-run (scripts/test.sh does)" }
    }

    static func start() throws {
        guard !started else { return }
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil else {
            throw NoDisplay()
        }
        setenv("GSK_RENDERER", "cairo", 0)
        setenv("NO_AT_BRIDGE", "1", 0)
        // The app's fonts, the sitelen pona one among them (scripts/fetch-fonts.sh puts them in build/fonts).
        Fonts.loadAppFonts(environment: [:])
        Fonts.add(TestModels.repositoryRoot.appendingPathComponent("build/fonts").path)
        guard Fonts.add(TestModels.sitelenPonaFont) else { throw MissingFont(path: TestModels.sitelenPonaFont) }
        gtk_init()
        started = true
    }

    /// Buttons whose only child draws an icon and that have no name for a screen reader.
    static func iconOnlyButtonsWithoutName(in root: UnsafeMutablePointer<GtkWidget>) -> [String] {
        var result: [String] = []
        func visit(_ widget: UnsafeMutablePointer<GtkWidget>) {
            if gtk_widget_has_css_class(widget, "icon-button") != 0 || gtk_widget_has_css_class(widget, "knob") != 0 {
                if gtk_widget_get_tooltip_text(widget) == nil { result.append(String(describing: widget)) }
            }
            var child = gtk_widget_get_first_child(widget)
            while let current = child {
                visit(current)
                child = gtk_widget_get_next_sibling(current)
            }
        }
        visit(root)
        return result
    }
}
