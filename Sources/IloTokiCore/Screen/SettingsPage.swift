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
    public var themeTitle: String
    public var themes: [ThemeChoice]
    public var fontTitle: String
    /// The family that draws sitelen pona now (what the field shows).
    public var fontFamily: String
    /// Said under the field when the chosen font is not installed.
    public var fontNote: String?
}

extension SettingsPage {
    /// - Parameter isFontInstalled: whether a font family can be drawn with on this device.
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings, isFontInstalled: (String) -> Bool) {
        let settings = model.settings
        self.init(
            keepHistory: Switch(title: strings[.keepHistory], isOn: settings.keepHistory),
            translateAsYouType: Switch(title: strings[.translateAsYouType], isOn: settings.translateAsYouType),
            themeTitle: strings[.theme],
            themes: [(AppSettings.Theme.light, UIText.themeLight), (.dark, .themeDark), (.system, .themeSystem)].map {
                ThemeChoice(title: strings[$0.1], theme: $0.0, isChosen: settings.theme == $0.0)
            },
            fontTitle: strings[.sitelenFont],
            fontFamily: settings.sitelenPonaFamily(isInstalled: isFontInstalled),
            fontNote: settings.missingSitelenPonaFont(isInstalled: isFontInstalled).map { strings(.sitelenFontChosenMissing, $0) })
    }
}

extension TranslatorModel {
    /// The font field of the settings was set: the bundled font's name (or nothing) means the
    /// font that comes with the app.
    public func chooseSitelenPonaFont(_ text: String) {
        let family = text.trimmingCharacters(in: .whitespaces)
        setSitelenPonaFont(family == AppSettings.bundledSitelenPonaFont ? nil : family)
    }
}
