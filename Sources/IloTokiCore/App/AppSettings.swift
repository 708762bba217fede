import Foundation

/// What the user chose, kept between launches in `settings.json`.
public struct AppSettings: Codable, Equatable, Sendable {
    public enum Theme: String, Codable, CaseIterable, Sendable {
        /// Bone paper, ink lines.
        case light
        /// Ink paper, bone lines.
        case dark
        /// As the system prefers.
        case system
    }

    /// The model to translate with (a catalog id or a sideloaded id).
    public var selectedModelID: String?
    /// The direction of the last translation.
    public var lastDirection: TranslationDirection = .tokiPonaToEnglish
    /// Keep finished translations in the history.
    public var keepHistory = true
    /// Translate while typing, without pressing the slab.
    public var translateAsYouType = false
    public var theme: Theme = .system
    /// Whether the model licence (Gemma Terms of Use) was shown and accepted.
    public var acceptedModelLicence = false
    /// The font family that draws sitelen pona from ligatures.
    public var sitelenPonaFont = "nasin-nanpa"

    public init() {}

    // Settings written by a newer or older version decode with defaults for what is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = AppSettings()
        selectedModelID = try container.decodeIfPresent(String.self, forKey: .selectedModelID)
        lastDirection = try container.decodeIfPresent(TranslationDirection.self, forKey: .lastDirection) ?? defaults.lastDirection
        keepHistory = try container.decodeIfPresent(Bool.self, forKey: .keepHistory) ?? defaults.keepHistory
        translateAsYouType = try container.decodeIfPresent(Bool.self, forKey: .translateAsYouType) ?? defaults.translateAsYouType
        theme = try container.decodeIfPresent(Theme.self, forKey: .theme) ?? defaults.theme
        acceptedModelLicence = try container.decodeIfPresent(Bool.self, forKey: .acceptedModelLicence) ?? defaults.acceptedModelLicence
        sitelenPonaFont = try container.decodeIfPresent(String.self, forKey: .sitelenPonaFont) ?? defaults.sitelenPonaFont
    }
}

/// Reads and writes `settings.json`.
public struct SettingsStore: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The settings, or the defaults; a damaged file is moved aside and reported in `problem`.
    public func load() -> (settings: AppSettings, problem: String?) {
        let read = JSONFile.read(AppSettings.self, from: url)
        return (read.value ?? AppSettings(), read.problem)
    }

    public func save(_ settings: AppSettings) throws {
        try JSONFile.write(settings, to: url)
    }
}
