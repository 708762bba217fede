import IloTokiDesign

/// A place of the app: the main screen, or a page the header leads to.
public enum Place: String, Codable, CaseIterable, Sendable {
    case main, history, models, settings, about
}

/// The look the app draws in now: the theme setting resolved against the system's preference.
public enum Appearance: String, CaseIterable, Codable, Sendable {
    case light, dark
}

/// The main screen as plain values: what the header, the two plates, the message under them
/// and the slab show now. A front end draws these and decides nothing about the app's state;
/// each is derived from the app model here, once, for every front end.
public struct MainScreen: Equatable, Sendable, Encodable {
    /// The header: the name, the model line, the dot for a newer model, the download's control.
    public struct Header: Equatable, Sendable, Encodable {
        public var title: String
        /// The model in use, or what it is doing ("Loading the model…").
        public var modelLine: String
        /// While the chosen model is on its way and the one in use answers in its place, a line
        /// under the model line that says so ("Answering until ilo-toki-1.3-MiLMMT-46-1b is here").
        public var standIn: String?
        /// A newer model is in the catalog: a dot, never more.
        public var showsNewerModelDot: Bool
        public var newerModelLabel: String
        /// The download's pause/resume control and the progress line, while there is a download.
        public var download: DownloadControl?
        /// The pages the header leads to, in order, each with its title (also what a screen
        /// reader says) and icon.
        public var places: [PlaceLink]
    }

    /// A button of the header that opens a page.
    public struct PlaceLink: Equatable, Sendable, Encodable {
        public var place: Place
        public var title: String
        public var icon: IconName
    }

    /// A language a plate's chooser offers.
    public struct LanguageChoice: Equatable, Sendable, Encodable {
        public var language: Language
        /// The language's own name ("Русский").
        public var title: String
        public var isChosen: Bool
    }

    /// The header's control of the download under way, and the 12 dp line under the header.
    public struct DownloadControl: Equatable, Sendable, Encodable {
        /// Running: the control pauses. Otherwise it resumes.
        public var isRunning: Bool
        /// The control's icon: pause while running, download otherwise.
        public var icon: IconName
        /// What the control says to a screen reader.
        public var label: String
        /// 0…1 for the progress line.
        public var fraction: Double

        public init(isRunning: Bool, label: String, fraction: Double) {
            self.isRunning = isRunning
            self.icon = isRunning ? .pause : .download
            self.label = label
            self.fraction = fraction
        }
    }

    /// One plate.
    public struct Plate: Equatable, Sendable, Encodable {
        /// The language of the plate's text.
        public var language: Language
        /// The language on the other side of Toki Pona (what the chooser offers).
        public var otherLanguage: Language
        /// Whether the plate lets the user choose its language (it does unless it holds Toki Pona).
        public var choosesLanguage: Bool
        /// The plate's language by its own name, as the plate's top shows it.
        public var languageTitle: String
        /// What the chooser offers (empty on the Toki Pona plate), in order.
        public var languageChoices: [LanguageChoice]
        /// What a screen reader calls the language chooser (its value is `languageTitle`).
        public var languageLabel: String
        /// What a screen reader calls the plate's text.
        public var textLabel: String
        /// What a screen reader calls the pill (its value is the script it shows now).
        public var pillLabel: String
        /// The script the text is drawn in now, by name (the pill's value for a screen reader).
        public var scriptName: String
        /// The pill that flips Latin ↔ sitelen pona: on the plate that holds Toki Pona.
        public var pill: String?
        /// The text, or what the plate says instead of a translation.
        public var text: String
        /// The text is a message (quiet), not the plate's content.
        public var isMessage: Bool
        /// Draw the text in sitelen pona (the ligature font, from the same Latin text).
        public var inSitelenPona: Bool
        /// Offer to copy the text.
        public var canCopy: Bool
        /// Phrases to offer while the source plate is empty.
        public var samplePhrases: [String]
        /// How the keyboard should behave while the plate's text is typed.
        public var keyboard: Keyboard
        /// The words of the plate's Toki Pona text that the dictionary has, in order, for a
        /// front end that offers them to tap (`.lookUpWord`); empty on the other plate.
        public var dictionaryWords: [String]
    }

    /// A hint shown once, with the button that dismisses it (`.dismissFirstRunHint`).
    public struct Hint: Equatable, Sendable, Encodable {
        public var text: String
        public var dismissTitle: String
    }

    /// What the system's notification says once a downloaded model has loaded: the front end
    /// posts it when the app is not in front (GNotification, a notification channel,
    /// UserNotifications), then performs `.readyNoticeHandled` either way.
    public struct ReadyNotice: Equatable, Sendable, Encodable {
        public var title: String
        public var body: String
    }

    /// A Toki Pona word's dictionary entry (lipu Linku), shown until it is closed.
    public struct WordCard: Equatable, Sendable, Encodable {
        public var word: String
        /// The sitelen pona glyph (a UCSUR character, drawn in the sitelen pona font).
        public var glyph: String?
        /// lipu Linku's English definition.
        public var definition: String
        /// How widely the word is used, in the UI's language ("core word"); empty when unknown.
        public var usage: String
        public var seeAlsoTitle: String
        /// Words to look up next (`.lookUpWord`).
        public var seeAlso: [String]
        /// Where the entry comes from, and that its definition is English.
        public var credit: String
        public var closeLabel: String
    }

    /// How a plate's keyboard should behave, for its language. Toki Pona is written in
    /// lowercase with fourteen Latin letters, and no system dictionary knows its words, so
    /// its plate gets no corrections, no automatic capitals and an ASCII keyboard. The other
    /// languages get the system's usual help, and a keyboard in their own language where the
    /// platform lets an app ask for one.
    public struct Keyboard: Equatable, Sendable, Encodable {
        /// Corrections, suggestions and the spelling checker.
        public var corrects: Bool
        /// A capital at the start of each sentence.
        public var capitalizesSentences: Bool
        /// A keyboard of ASCII letters and punctuation.
        public var asciiOnly: Bool
        /// The language the keyboard should offer (BCP 47, "ru"), or nil for Toki Pona, which
        /// no system keyboard has.
        public var languageTag: String?

        public init(for language: Language) {
            let tokiPona = language == .tokiPona
            corrects = !tokiPona
            capitalizesSentences = !tokiPona
            asciiOnly = tokiPona
            languageTag = tokiPona ? nil : language.code
        }
    }

    /// The primary action at the foot.
    public struct Slab: Equatable, Sendable, Encodable {
        public var title: String
        public var isEnabled: Bool
        /// What pressing it does (performing `.pressSlab` does it).
        public var action: TranslatorModel.SlabAction
        /// The icon beside the title.
        public var icon: IconName

        public init(title: String, isEnabled: Bool, action: TranslatorModel.SlabAction) {
            self.title = title
            self.isEnabled = isEnabled
            self.action = action
            icon =
                switch action {
                case .stop: .pause
                case .download, .resumeDownload: .download
                case .translate, .busy, .retry: .translate
                }
        }
    }

    public var header: Header
    public var source: Plate
    public var target: Plate
    /// The first-run hint: where the translator is fetched, until it is dismissed or a
    /// download begins; only while no model is on the device.
    public var hint: Hint?
    /// The dictionary entry of the word looked up, while it is shown.
    public var word: WordCard?
    /// A downloaded model has loaded and the system has not been told yet.
    public var readyNotice: ReadyNotice?
    /// The phones' haptics, while the setting is on: a light tap on every press the front end
    /// handles, and a tick each time `wordTicks` grows (words landed, at most one per 60 ms).
    public var haptics: Haptics?

    public struct Haptics: Equatable, Sendable, Encodable {
        public var wordTicks: Int
    }
    /// The thin bar under the target plate while a long text translates (from its fourth
    /// sentence on): sentences finished of all of them. A screen reader hears it as progress,
    /// named by `label`.
    public var translationBar: ProgressBar?

    public struct ProgressBar: Equatable, Sendable, Encodable {
        /// From 0 to 1.
        public var fraction: Double
        public var done: Int
        public var total: Int
        /// "Sentences translated: 12 / 40".
        public var label: String
    }

    /// The fewest sentences a text has for its translation to show a progress bar.
    public static let sentencesForProgressBar = 4

    /// The line under the plates: notices, or a short-lived message.
    public var notice: String?
    public var slab: Slab
    /// What the swap knob and the copy button say to a screen reader.
    public var swapLabel: String
    public var copyLabel: String
    /// What the share button says to a screen reader (phones; shown where copy is).
    public var shareLabel: String
    /// For text that came from another app's selection (Android's text-selection menu): the
    /// button that hands the translation back in its place.
    public var replaceLabel: String
    /// The theme setting, and the look it resolves to.
    public var theme: AppSettings.Theme
    public var appearance: Appearance
}

extension MainScreen {
    /// What the main screen shows for `model`, in `strings`' language.
    /// - Parameter systemPrefersDark: whether the system asks for a dark look now (what the
    ///   "system" theme follows).
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings, systemPrefersDark: Bool = false) {
        let format = Formatting(strings)
        header = Self.header(model, strings, format)
        let direction = model.direction
        let sitelen = model.tokiPonaScript == .sitelenPona
        let pill = sitelen ? strings[.scriptLatin] : strings[.scriptSitelenPona]
        let script = sitelen ? strings[.scriptSitelenPona] : strings[.scriptLatin]
        func plate(_ language: Language, isSource: Bool, text: String, isMessage: Bool) -> Plate {
            let holdsTokiPona = language == .tokiPona
            return Plate(
                language: language, otherLanguage: direction.otherLanguage, choosesLanguage: !holdsTokiPona,
                languageTitle: language.endonym,
                languageChoices: holdsTokiPona
                    ? [] : Language.others.map { LanguageChoice(language: $0, title: $0.endonym, isChosen: $0 == language) },
                languageLabel: strings[isSource ? .sourceLanguageLabel : .targetLanguageLabel],
                textLabel: strings[isSource ? .sourceTextLabel : .translationLabel], pillLabel: strings[.scriptLabel],
                scriptName: holdsTokiPona ? script : strings[.scriptLatin],
                pill: holdsTokiPona ? pill : nil, text: text, isMessage: isMessage,
                inSitelenPona: sitelen && holdsTokiPona && !isMessage, canCopy: !isSource && !model.targetText.isEmpty,
                samplePhrases: isSource ? model.samplePhrases : [], keyboard: Keyboard(for: language),
                dictionaryWords: holdsTokiPona && !isMessage ? Array((model.wordList?.words(in: text) ?? []).prefix(60)) : [])
        }
        source = plate(direction.source, isSource: true, text: model.sourceText, isMessage: false)
        let (text, isMessage) = Self.targetText(model, strings, format)
        target = plate(direction.target, isSource: false, text: text, isMessage: isMessage)
        word = model.lookedUpWord.map { Self.wordCard($0, strings) }
        hint = Self.firstRunHint(model, strings)
        readyNotice = model.readyNoticeModel.map { ReadyNotice(title: strings[.readyTitle], body: strings(.readyBody, $0.displayName)) }
        haptics = model.settings.haptics ? Haptics(wordTicks: model.haptic.ticks) : nil
        notice = Self.notice(model, strings)
        translationBar =
            if model.translationState == .translating, let chunks = model.translationChunks, chunks.total >= Self.sentencesForProgressBar {
                ProgressBar(
                    fraction: Double(chunks.done) / Double(chunks.total), done: chunks.done, total: chunks.total,
                    label: strings(.translationProgress, "\(chunks.done) / \(chunks.total)"))
            } else {
                nil
            }
        slab = Self.slab(model, strings, format)
        swapLabel = strings[.swap]
        copyLabel = strings[.copy]
        shareLabel = strings[.share]
        replaceLabel = strings[.replaceText]
        theme = model.settings.theme
        appearance =
            switch theme {
            case .light: .light
            case .dark: .dark
            case .system: systemPrefersDark ? .dark : .light
            }
    }

    @MainActor
    static func firstRunHint(_ model: TranslatorModel, _ strings: UIStrings) -> Hint? {
        guard !model.settings.firstRunHintDone, case .download(let entry) = model.slabAction else { return nil }
        let host = entry.url(endpoint: model.library.access.mirror)?.host ?? model.library.access.host
        return Hint(text: strings(.firstRunHint, host), dismissTitle: strings[.firstRunHintDismiss])
    }

    public static func wordCard(_ entry: WordEntry, _ strings: UIStrings) -> WordCard {
        let usage: String =
            switch entry.usage {
            case .core: strings[.usageCore]
            case .common: strings[.usageCommon]
            case .uncommon: strings[.usageUncommon]
            case .obscure: strings[.usageObscure]
            case .sandbox: strings[.usageSandbox]
            case nil: ""
            }
        return WordCard(
            word: entry.word, glyph: entry.glyph, definition: entry.definition, usage: usage, seeAlsoTitle: strings[.seeAlso],
            seeAlso: entry.seeAlso, credit: strings[.wordCredit], closeLabel: strings[.closeWord])
    }

    @MainActor
    static func header(_ model: TranslatorModel, _ strings: UIStrings, _ format: Formatting) -> Header {
        var line = model.loadedModel?.displayName ?? ""
        switch model.modelState {
        case .loading: line = strings[.modelLoading]
        case .failed: line = strings[.retry]
        case .notDownloaded: line = strings[.modelNotInstalled]
        default: break
        }
        let download = model.activeDownload.map { download -> DownloadControl in
            let running = if case .running = download.phase { true } else { false }
            return DownloadControl(
                isRunning: running, label: running ? strings[.pauseDownload] : strings(.resumeDownload, format.percent(download.fraction)),
                fraction: download.fraction)
        }
        let places: [(Place, IconName, UIText)] = [
            (.history, .history, .history), (.models, .models, .models), (.settings, .settings, .settings), (.about, .about, .about),
        ]
        return Header(
            title: strings[.appName], modelLine: line,
            standIn: model.modelState == .ready ? model.awaitedModel.map { strings(.standingIn, $0.displayName) } : nil,
            showsNewerModelDot: model.newerModelAvailable,
            newerModelLabel: strings[.newerModelAvailable], download: download,
            places: places.map { PlaceLink(place: $0.0, title: strings[$0.2], icon: $0.1) })
    }

    /// What the target plate says: the translation, or why there is none.
    @MainActor
    static func targetText(_ model: TranslatorModel, _ strings: UIStrings, _ format: Formatting) -> (String, isMessage: Bool) {
        if !model.targetText.isEmpty { return (model.targetText, false) }
        if case .failed(let reason) = model.translationState { return (strings(.translationFailed, reason), true) }
        switch model.modelState {
        case .notDownloaded: return (strings[.modelNotDownloaded], true)
        case .downloading(let progress): return (strings(.downloading, format.percent(progress.fraction)), true)
        case .paused(let progress): return (strings(.downloadPaused, format.percent(progress.fraction)), true)
        case .verifying: return (strings[.verifying], true)
        case .loading: return (strings[.modelLoading], true)
        case .failed(let reason): return (strings(.modelFailed, reason), true)
        case .ready: return (model.translationState == .done ? strings[.emptyTranslation] : "", true)
        }
    }

    @MainActor
    static func notice(_ model: TranslatorModel, _ strings: UIStrings) -> String? {
        var lines = model.notices
        switch model.flash {
        case .copied?: lines.append(strings[.copied])
        case .sitelenPonaFontMissing(let family)?: lines.append(strings(.sitelenFontMissing, family))
        case nil: break
        }
        return lines.isEmpty ? nil : lines.joined(separator: "\n")
    }

    @MainActor
    static func slab(_ model: TranslatorModel, _ strings: UIStrings, _ format: Formatting) -> Slab {
        let action = model.slabAction
        switch action {
        case .translate:
            return Slab(title: strings[.translate], isEnabled: !TranslationPrompt.prepare(model.sourceText).isEmpty, action: action)
        case .stop:
            return Slab(title: strings[.stop], isEnabled: true, action: action)
        case .download(let entry):
            let exact = model.library.statuses.first { $0.entry.id == entry.id }?.expectedBytes
            let title =
                exact == nil && entry.approximateBytes == nil
                ? strings[.downloadModelUnsized] : strings(.downloadModel, format.size(of: entry, exact: exact))
            return Slab(title: title, isEnabled: true, action: action)
        case .resumeDownload:
            let fraction =
                model.activeDownload?.fraction
                ?? {
                    if case .paused(let progress) = model.modelState { return progress.fraction ?? 0 }
                    return 0
                }()
            return Slab(title: strings(.resumeDownload, format.percent(fraction)), isEnabled: true, action: action)
        case .busy:
            return Slab(title: strings[.wait], isEnabled: false, action: action)
        case .retry:
            return Slab(title: strings[.retry], isEnabled: true, action: action)
        }
    }
}
