import Foundation
import IloTokiCore
import IloTokiEngineLive
import Observation

/// One open store: the app model, and what the Java side asked for when it opened it.
/// Everything here runs on the main actor; the exported functions only marshal.
@MainActor
final class Session {
    let model: TranslatorModel
    let strings: UIStrings
    private let fontFamilies: Set<String>
    private let callbacks: Callbacks
    private var lastTarget = ""
    private var closed = false

    init(home: URL, language: Language, fontFamilies: [String], callbacks: Callbacks) throws {
        let environment = ProcessInfo.processInfo.environment
        let store = ModelStore(directories: AppDirectories(home: home), catalog: try ModelCatalog.forEnvironment(environment))
        model = TranslatorModel(store: store, engineLoader: LiveEngineLoader(), endpoint: ModelCatalog.mirror(in: environment))
        strings = UIStrings(language: language)
        self.fontFamilies = Set(fontFamilies)
        self.callbacks = callbacks
        track()
        Task { await model.launch() }
    }

    func isFontInstalled(_ family: String) -> Bool { fontFamilies.contains(family) }

    /// The values of a place, as JSON: "main", "models", "history", "olin" (the favourites),
    /// "settings" or "about".
    func screen(_ place: String) throws -> String {
        switch place {
        case "main": try ScreenJSON.encode(MainScreen(model: model, strings: strings))
        case "models": try ScreenJSON.encode(ModelsPage(model: model, strings: strings))
        case "history", "olin": try ScreenJSON.encode(HistoryPage(model: model, strings: strings, onlyOlin: place == "olin"))
        case "settings": try ScreenJSON.encode(SettingsPage(model: model, strings: strings, isFontInstalled: isFontInstalled))
        case "about": try ScreenJSON.encode(AboutPage(model: model, strings: strings))
        default: throw BridgeError.badArgument("no place called \(place)")
        }
    }

    /// Does one action of the screen. Returns what the Java side needs back: the copied text,
    /// or `{"licence": {"entry", "name", "summary", "url"}}` when a download needs the licence
    /// accepted first.
    func perform(_ action: String, _ argument: String?) async throws -> String? {
        func text() throws -> String {
            guard let argument else { throw BridgeError.null("\(action) needs an argument") }
            return argument
        }
        func flag() throws -> Bool {
            switch try text() {
            case "true": return true
            case "false": return false
            case let other: throw BridgeError.badArgument("\(action) takes true or false, not \(other)")
            }
        }
        func entry() throws -> CatalogEntry {
            let id = try text()
            guard let entry = model.store.catalog.entry(id: id) else { throw BridgeError.badArgument("no catalog model called \(id)") }
            return entry
        }
        func historyID() throws -> UUID {
            guard let id = UUID(uuidString: try text()) else { throw BridgeError.badArgument("\(argument ?? "") is not a history entry id") }
            return id
        }
        switch action {
        case "setSourceText": model.sourceText = try text()
        case "pressSlab": return try outcome(model.pressSlab())
        case "translate": model.translateIfReady()
        case "stop": model.stopIfTranslating()
        case "swap": model.swap()
        case "setOtherLanguage":
            guard let language = Language(code: try text()), language != .tokiPona else {
                throw BridgeError.badArgument("setOtherLanguage takes en, ru or vi")
            }
            model.setOtherLanguage(language)
        case "flipScript": model.flipScript(isFontInstalled: isFontInstalled)
        case "useSample": model.useSamplePhrase(try text())
        case "copy": return model.copyResult()
        case "toggleDownload": return try outcome(model.toggleDownload())
        case "download": return try outcome(model.perform(.download(try entry())))
        case "acceptLicence": model.acceptLicenceAndDownload(try entry())
        case "pauseDownload": model.pauseDownload()
        case "use": await model.selectModel(id: try text())
        case "delete": await model.deleteModel(id: try text())
        case "addModel":
            let request = try AddModel.decode(try text())
            _ = try await model.addSideloadedModel(path: request.path, name: request.name, format: request.format)
        case "useModelFile":
            let request = try AddModel.decode(try text())
            await model.useModelFile(URL(fileURLWithPath: request.path), format: request.format)
        case "setOlin":
            let parts = try text().split(separator: " ")
            guard parts.count == 2, let id = UUID(uuidString: String(parts[0])), let olin = Bool(String(parts[1])) else {
                throw BridgeError.badArgument("setOlin takes \"<id> true\" or \"<id> false\"")
            }
            model.setOlin(olin, for: id)
        case "removeHistoryEntry": model.removeHistoryEntry(try historyID())
        case "reuse":
            let id = try historyID()
            guard let entry = model.history.entries.first(where: { $0.id == id }) else { throw BridgeError.badArgument("no history entry \(id)") }
            model.reuse(entry)
        case "clearHistory": model.clearHistory()
        case "refresh":
            model.refreshHistory()
            model.library.refresh()
        case "setKeepHistory": model.setKeepHistory(try flag())
        case "setTranslateAsYouType": model.setTranslateAsYouType(try flag())
        case "setTheme":
            guard let theme = AppSettings.Theme(rawValue: try text()) else { throw BridgeError.badArgument("setTheme takes light, dark or system") }
            model.setTheme(theme)
        case "setSitelenPonaFont": model.chooseSitelenPonaFont(try text())
        default: throw BridgeError.badArgument("no action called \(action)")
        }
        return nil
    }

    /// Stops what runs, waits until the engine does no more work and writes what is
    /// pending; the listener hears nothing after this. The process goes on (it is the Java
    /// app's), so nothing of this session may still run once `close` returns.
    func close() async {
        closed = true
        await model.close()
    }

    private func outcome(_ outcome: ActionOutcome) throws -> String? {
        guard case .showLicence(let entry) = outcome else { return nil }
        return try ScreenJSON.encode(["licence": LicenceOffer(entry: entry)])
    }

    /// Tells the listener whenever anything a screen shows changes, and streams what the
    /// target plate gains as pieces. This runs again after every change (every token while
    /// translating), so the history is observed through `model.history` rather than by
    /// building its page, which formats a date per entry; the page's other reads (the script,
    /// the settings) are the main screen's and the settings page's.
    private func track() {
        withObservationTracking {
            _ = MainScreen(model: model, strings: strings)
            _ = ModelsPage(model: model, strings: strings)
            _ = model.history
            _ = SettingsPage(model: model, strings: strings, isFontInstalled: isFontInstalled)
        } onChange: { [weak self] in
            Task { @MainActor in self?.changed() }
        }
    }

    private func changed() {
        guard !closed else { return }
        // Compared as UTF-16, as Java will join the pieces: compared as Characters, a piece
        // that begins with a combining mark changes the last Character of the text before
        // it, the old text is no longer a prefix, and the piece would be lost.
        let target = model.targetText
        if target.utf16.count > lastTarget.utf16.count, target.utf16.starts(with: lastTarget.utf16) {
            callbacks.post(.piece(String(decoding: Array(target.utf16.dropFirst(lastTarget.utf16.count)), as: UTF16.self)))
        }
        lastTarget = target
        callbacks.post(.changed)
        track()
    }
}

/// What a download that needs the model licence accepted first answers: the model, and the
/// licence to show before "acceptLicence".
struct LicenceOffer: Encodable {
    var entry: CatalogEntry
    var name = ModelCatalog.modelLicence.name
    var summary = ModelCatalog.modelLicence.summary
    var url = ModelCatalog.modelLicence.url.absoluteString
}

/// The argument of "addModel" and "useModelFile": `{"path": "...", "format": "sourceTarget", "name": null}`.
struct AddModel: Decodable {
    var path: String
    var format: PromptFormat
    var name: String?

    static func decode(_ json: String) throws -> AddModel {
        do {
            return try JSONDecoder().decode(AddModel.self, from: Data(json.utf8))
        } catch {
            throw BridgeError.badArgument("expected {\"path\": …, \"format\": \"sourceTarget\" or \"queryAnswer\"}, got \(json)")
        }
    }
}
