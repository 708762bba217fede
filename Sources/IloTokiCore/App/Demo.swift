import Foundation

/// The app with canned translations and no real model: for screenshots, previews, and trying
/// a front end on a machine without a model. Every front end shows the same demo.
public enum Demo {
    /// A scripted engine that answers the phrases below (and echoes anything else), word by word.
    public static func engine() -> ScriptedEngine {
        ScriptedEngine(delay: .milliseconds(30)) { source in
            let answer = translations[source] ?? source
            return answer.split(separator: " ", omittingEmptySubsequences: false).map { " " + $0 }
        }
    }

    public static let translations: [String: String] = [
        "jan li moku e kili.": "The person eats fruit.",
        "toki! sina pona lukin.": "Hello! You look good.",
        "mi olin e sina.": "I love you.",
        "tenpo suno ni li pona.": "Today is a good day.",
        "The person eats fruit.": "jan li moku e kili.",
        "I love you.": "mi olin e sina.",
        "Good morning!": "tenpo suno pona!",
        "Я тебя люблю.": "mi olin e sina.",
        "Tôi yêu bạn.": "mi olin e sina.",
        "Доброе утро!": "tenpo suno pona!",
        "Chào buổi sáng!": "tenpo suno pona!",
    ]

    /// An app model over a fresh temporary home, with the demo engine and a downloader that
    /// never touches the network.
    /// - Parameter isFontInstalled: whether a font family can be drawn with on this device.
    @MainActor
    public static func model(isFontInstalled: @escaping @MainActor (String) -> Bool = { _ in true }) -> TranslatorModel {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("ilotoki-demo-\(UUID().uuidString)")
        return TranslatorModel(
            store: ModelStore(directories: AppDirectories(home: home)), engineLoader: ScriptedEngineLoader { _ in engine() },
            downloader: downloader, availableMemory: { 1 << 40 }, isFontInstalled: isFontInstalled)
    }

    /// The demo's downloader: it moves only when the demo moves it (`standIn`).
    static let downloader = ScriptedDownloader()

    /// Puts the demo model in a state worth showing: the real catalog model's name in use, a
    /// phrase translated (unless `withoutModel`, which shows the first launch). With `standIn`,
    /// the newest model is downloading (40 %) while 1.1 answers in its place.
    @MainActor
    public static func prepare(
        _ model: TranslatorModel, theme: AppSettings.Theme?, direction: TranslationDirection?, text: String?,
        sitelenPona: Bool, withoutModel: Bool, standIn: Bool = false
    ) async {
        await model.launch()
        if let theme { model.perform(.setTheme(theme: theme)) }
        guard !withoutModel else { return }
        await model.run(.useFileForSession(path: "/demo/ilo-toki-1.1-MiLMMT-46-1b-Q8_0.gguf", format: .sourceTarget))
        model.perform(.setDirection(direction: direction ?? .tokiPonaToEnglish))
        model.perform(.setSourceText(text: text ?? "jan li moku e kili."))
        model.perform(.translate)
        while model.translationState == .translating { try? await Task.sleep(for: .milliseconds(20)) }
        if sitelenPona { model.perform(.flipScript) }
        if standIn, let newest = model.store.catalog.defaultEntry {
            model.perform(.acceptLicence)
            model.perform(.download(id: newest.id))
            let total = newest.approximateBytes ?? 1_390_169_824
            downloader.progress(bytes: total * 2 / 5, total: total)
            while model.activeDownload?.fraction ?? 0 < 0.39 { try? await Task.sleep(for: .milliseconds(10)) }
        }
    }
}
