/// The settings as plain values.
public struct SettingsPage: Equatable, Sendable, Encodable {
    public struct Switch: Equatable, Sendable, Encodable {
        public var title: String
        public var isOn: Bool
    }

    public struct ThemeChoice: Equatable, Sendable, Encodable {
        public var title: String
        public var theme: AppSettings.Theme
        public var isChosen: Bool
    }

    public var keepHistory: Switch
    public var translateAsYouType: Switch
    /// Each sentence on its own, or each line whole.
    public var translateBySentence: Switch
    /// The phones' haptics (front ends without haptics leave it out).
    public var haptics: Switch
    public var themeTitle: String
    public var themes: [ThemeChoice]
    public var fontTitle: String
    /// The family that draws sitelen pona now (what the field shows).
    public var fontFamily: String
    /// Said under the field when the chosen font is not installed.
    public var fontNote: String?
}

extension SettingsPage {
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings) {
        let settings = model.settings
        let isFontInstalled = model.isFontInstalled
        self.init(
            keepHistory: Switch(title: strings[.keepHistory], isOn: settings.keepHistory),
            translateAsYouType: Switch(title: strings[.translateAsYouType], isOn: settings.translateAsYouType),
            translateBySentence: Switch(title: strings[.translateBySentence], isOn: settings.translateBySentence),
            haptics: Switch(title: strings[.haptics], isOn: settings.haptics),
            themeTitle: strings[.theme],
            themes: [(AppSettings.Theme.light, UIText.themeLight), (.dark, .themeDark), (.system, .themeSystem)].map {
                ThemeChoice(title: strings[$0.1], theme: $0.0, isChosen: settings.theme == $0.0)
            },
            fontTitle: strings[.sitelenFont],
            fontFamily: settings.sitelenPonaFamily(isInstalled: isFontInstalled),
            fontNote: settings.missingSitelenPonaFont(isInstalled: isFontInstalled).map { strings(.sitelenFontChosenMissing, $0) })
    }
}
