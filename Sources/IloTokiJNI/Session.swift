import Foundation
import IloTokiCore
import IloTokiEngineLive
import Observation

/// One open store: the app model, and what the Java side asked for when it opened it.
/// Everything here runs on the main actor; the exported functions only marshal. Actions and
/// screen values cross as JSON of Core's own `Codable` types (`Action`, `ActionOutcome`,
/// `MainScreen` and the pages), whose Kotlin mirror is generated (`Contract.kt`).
@MainActor
final class Session {
    let model: TranslatorModel
    let strings: UIStrings
    private let callbacks: Callbacks
    private var lastTarget = ""
    private var closed = false
    /// Whether the system asks for a dark look (Android's night mode), for the "system" theme.
    var systemPrefersDark = false

    init(home: URL, language: InterfaceLanguage, fontFamilies: [String], callbacks: Callbacks) throws {
        let families = Set(fontFamilies)
        model = try LiveApp.model(
            directories: AppDirectories(home: home), environment: ProcessInfo.processInfo.environment,
            isFontInstalled: { families.contains($0) })
        strings = UIStrings(language: language)
        self.callbacks = callbacks
        track()
        Task { await model.launch() }
    }

    /// The values of a place, as JSON; `place` is a `Place`'s name ("main", "models",
    /// "history", "settings" or "about"), as the Kotlin contract's `Place.json` writes it.
    func screen(_ place: String) throws -> String {
        switch Place(rawValue: place) {
        case .main?: return try ScreenJSON.encode(MainScreen(model: model, strings: strings, systemPrefersDark: systemPrefersDark))
        case .models?: return try ScreenJSON.encode(ModelsPage(model: model, strings: strings))
        case .history?: return try ScreenJSON.encode(HistoryPage(model: model, strings: strings))
        case .settings?: return try ScreenJSON.encode(SettingsPage(model: model, strings: strings))
        case .about?: return try ScreenJSON.encode(AboutPage(model: model, strings: strings))
        case nil: throw BridgeError.badArgument("no place called \(place)")
        }
    }

    /// Performs one action, given as the JSON of an `Action` (`{"use": {"id": "…"}}`), and
    /// returns the JSON of its `ActionOutcome`. Returns at once: long work goes on, and the
    /// listener hears of its progress and end.
    func perform(_ json: String) throws -> String {
        let action: Action
        do {
            action = try JSONDecoder().decode(Action.self, from: Data(json.utf8))
        } catch {
            throw BridgeError.badArgument("not an action: \(json.prefix(200)) (\(Self.describe(error)))")
        }
        return try ScreenJSON.encode(model.perform(action))
    }

    /// Stops what runs, waits until the engine does no more work and writes what is
    /// pending; the listener hears nothing after this. The process goes on (it is the Java
    /// app's), so nothing of this session may still run once `close` returns.
    func close() async {
        closed = true
        await model.close()
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return error.localizedDescription
        }
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
            _ = SettingsPage(model: model, strings: strings)
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
