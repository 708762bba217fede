import Foundation

/// Everything a user can do in ilo toki, as one value. Every front end (GTK, SwiftUI, the
/// Android app through the JNI bridge, the command line) performs these with
/// `TranslatorModel.perform(_:)` and draws what the screen values derive afterwards, so no
/// front end decides what an action means.
///
/// `Codable`: the Android bridge carries actions as JSON (`{"use": {"id": "…"}}`), and its
/// Kotlin types are generated from this enum (`ilotoki-design kotlin-contract`).
public enum Action: Codable, Equatable, Hashable, Sendable {
    // MARK: The plates

    /// The source plate's text changed (typing; translating as you type follows it).
    case setSourceText(text: String)
    /// The slab, pressed: translate, stop, download, resume or retry, whatever it offers now.
    case pressSlab
    /// Ctrl+Enter: translates when the slab would translate; never starts a download.
    case translate
    /// Escape: stops a translation; what arrived stays on the plate.
    case stop
    /// The swap knob: the translation becomes the source, the direction turns round.
    case swap
    /// A plate's language chooser: the language on the other side of Toki Pona.
    case setOtherLanguage(language: Language)
    /// Sets both languages at once (the command line's `--from`/`--to`, a reused entry).
    case setDirection(direction: TranslationDirection)
    /// The pill on the Toki Pona plate: Latin ↔ sitelen pona.
    case flipScript
    /// Puts a sample phrase on the source plate.
    case useSample(phrase: String)
    /// The translation, for the clipboard (the outcome carries the text).
    case copy
    /// The translation, for the phone's share sheet (the outcome carries the text).
    case share
    /// Dismisses the notice at this index under the plates.
    case dismissNotice(index: Int)
    /// Dismisses the first-run hint for good.
    case dismissFirstRunHint

    // MARK: Words

    /// Reads lipu Linku's word list from this file (the front end knows where its copy lies).
    case useWordList(path: String)
    /// Shows the dictionary entry of a Toki Pona word, tapped or selected on a plate (or a
    /// "see also" word of the entry shown).
    case lookUpWord(word: String)
    /// Closes the entry shown.
    case closeWord

    // MARK: Downloads

    /// The header's control: pauses a running download, resumes one that is not.
    case toggleDownload
    /// Downloads a catalog model (the licence is asked for first if it was never accepted).
    case download(id: String)
    /// The model licence was accepted without a sheet: remember it (the command line's
    /// `--accept-licence`).
    case acceptLicence
    /// The licence sheet for this catalog model was accepted: remember it and download the
    /// model (what every front end's sheet performs on acceptance).
    case acceptLicenceAndDownload(id: String)
    case pauseDownload
    /// Stops the download and deletes what was downloaded.
    case cancelDownload

    // MARK: Models

    /// Translates with this model from now on (chooses it; loads it if it is here).
    case use(id: String)
    /// Deletes a catalog model's files, or forgets an added file.
    case delete(id: String)
    /// Loads the chosen model again after a failure.
    case retry
    /// Adds a model file from elsewhere on the device (see `ModelImport`); a refusal shows
    /// in the models page's form (`ModelsPage.importError`) as well as in the outcome.
    case importModel(ModelImport)
    /// The format the models page's form adds the next file with.
    case setImportFormat(format: PromptFormat)
    /// Translates with a file for this session only, without adding it (the command line's
    /// `--model PATH`, the desktop app's `--model-file`).
    case useFileForSession(path: String, format: PromptFormat)
    /// Translates with a model for this session only, without choosing it (`--model ID`).
    case useForSession(id: String)

    // MARK: History

    /// The history page shows the favourites only, or everything.
    case filterHistory(onlyOlin: Bool)
    case setOlin(id: UUID, olin: Bool)
    case removeHistoryEntry(id: UUID)
    /// Puts a history entry back on the plates; the front end goes back to the main screen.
    case reuse(id: UUID)
    /// Clears the history but the favourites.
    case clearHistory
    /// Reads the history and the models again, with what another process (the command line
    /// while the app runs) changed: for a front end about to show them.
    case refresh

    // MARK: Settings

    case setKeepHistory(on: Bool)
    case setTranslateAsYouType(on: Bool)
    /// The phones' haptics: a light tap on a press, a tick as words land.
    case setHaptics(on: Bool)
    /// Each sentence on its own (on), or each line whole (off).
    case setTranslateBySentence(on: Bool)
    case setTheme(theme: AppSettings.Theme)
    /// The font field: a family name; the bundled font's name, or nothing, means the bundled font.
    case setSitelenPonaFont(family: String)

    // MARK: Lifecycle

    /// The app left the screen (backgrounded, minimized on a phone): every pending settings
    /// and history write goes to disk now, as the system may end the process without warning.
    case wentToBackground

    // MARK: From other apps and the system

    /// Text sent from another app (Android's text-selection menu or share sheet, the App Intent
    /// and the Mac's Services menu, `ilotoki-gtk --translate`): it goes onto the source plate,
    /// its direction is detected, and it is translated at once, or as soon as the model is ready.
    /// The front end then shows the main screen (`.showMain`).
    case translateIncoming(text: String)
    /// The front end has told the system that the translator is ready (`MainScreen.readyNotice`),
    /// or did not need to because the app was in front: the notice is not given again.
    case readyNoticeHandled
}

/// What a front end does after an action: usually nothing (it draws the screen values again
/// when they change), sometimes something only it can do.
public enum ActionOutcome: Codable, Equatable, Sendable {
    /// Done, or started: long work (a load, a delete, an import) goes on and its end shows in
    /// the screen values. `perform` never waits for it.
    case done
    /// The model licence must be shown and accepted before this model is downloaded: show
    /// it, and on acceptance perform `.acceptLicenceAndDownload(id:)`.
    case showLicence(LicenceOffer)
    /// A model file was added (`.importModel`): this is how the list will name it.
    case added(SideloadedModel)
    /// Put this text on the clipboard.
    case copy(text: String)
    /// Offer this text to the system's share sheet.
    case share(text: String)
    /// The action could not be done; the reason says why, in words for the user.
    case failed(reason: String)
    /// The front end goes back to the main screen (a history entry was reused).
    case showMain
}

/// The licence to show before a model's first download, and the model it is for.
public struct LicenceOffer: Codable, Equatable, Identifiable, Sendable {
    public var entry: CatalogEntry
    public var name: String
    public var summary: String
    public var url: String

    public init(entry: CatalogEntry) {
        self.entry = entry
        name = ModelCatalog.modelLicence.name
        summary = ModelCatalog.modelLicence.summary
        url = ModelCatalog.modelLicence.url.absoluteString
    }

    /// The offer stands for its model (a sheet shown for it, in SwiftUI's `sheet(item:)`).
    public var id: String { entry.id }
}

/// A model file to add: where it is, the format it answers to, its name, and whether to keep
/// a copy of it in the app's own directory. The phone apps copy (a picked file is only lent
/// to them); the desktop app and the command line leave a file where it is, as models are
/// gigabytes.
public struct ModelImport: Codable, Equatable, Hashable, Sendable {
    public var path: String
    public var format: PromptFormat
    public var name: String?
    public var copiesIntoApp: Bool

    public init(path: String, format: PromptFormat, name: String? = nil, copiesIntoApp: Bool = false) {
        self.path = path
        self.format = format
        self.name = name
        self.copiesIntoApp = copiesIntoApp
    }
}
