import Foundation

/// What the user chose, kept between launches in `settings.json`.
///
/// The file is read field by field: a value that cannot be read falls back to its default on
/// its own (and is reported), never the whole file. Fields this version does not know, and
/// values it cannot read, are kept as they were and written back unchanged, so a newer
/// version's settings survive a run of an older one.
public struct AppSettings: Codable, Equatable, Sendable {
    public enum Theme: String, Codable, CaseIterable, Sendable {
        /// Bone paper, ink lines.
        case light
        /// Ink paper, bone lines.
        case dark
        /// As the system prefers.
        case system
    }

    /// The sitelen pona font used when the user chose none: the one that comes with the app.
    public static let bundledSitelenPonaFont = "sitelen seli kiwen asuki"

    /// The model to translate with (a catalog id or a sideloaded id).
    public var selectedModelID: String? { didSet { fieldWasSet(.selectedModelID) } }
    /// The direction of the last translation.
    public var lastDirection: TranslationDirection = .tokiPonaToEnglish { didSet { fieldWasSet(.lastDirection) } }
    /// Keep finished translations in the history.
    public var keepHistory = true { didSet { fieldWasSet(.keepHistory) } }
    /// Translate while typing, without pressing the slab.
    public var translateAsYouType = false { didSet { fieldWasSet(.translateAsYouType) } }
    /// Translate each sentence on its own (and a paragraph's sentences together); off: each
    /// line whole. On by default: the translators were trained on single sentences.
    public var translateBySentence = true { didSet { fieldWasSet(.translateBySentence) } }
    public var theme: Theme = .system { didSet { fieldWasSet(.theme) } }
    /// Whether the model licence (Gemma Terms of Use) was shown and accepted.
    public var acceptedModelLicence = false { didSet { fieldWasSet(.acceptedModelLicence) } }
    /// The font family that draws sitelen pona from ligatures; `nil` is the bundled one.
    public var sitelenPonaFont: String? { didSet { fieldWasSet(.sitelenPonaFont) } }
    /// On the phones: a light tap on a press and a tick as words land.
    public var haptics = true { didSet { fieldWasSet(.haptics) } }
    /// The first-run hint (where the translator is fetched) was dismissed, or a download began.
    public var firstRunHintDone = false { didSet { fieldWasSet(.firstRunHintDone) } }

    /// Fields of the file this version does not know, or could not read: written back as they were.
    public private(set) var otherFields: [String: JSONValue] = [:]
    /// Known fields whose value in the file could not be read, with that value; each uses
    /// its default (`keepHistory`: off) until the user sets it.
    public private(set) var unreadableFields: [String: JSONValue] = [:]

    public init() {}

    /// The font to draw sitelen pona with: the user's choice when it is installed, else the
    /// one that comes with the app (a choice that went missing never leaves the pill without
    /// glyphs while the bundled font is there).
    /// - Parameter isInstalled: whether a font family can be drawn with on this device.
    public func sitelenPonaFamily(isInstalled: (String) -> Bool) -> String {
        if let chosen = sitelenPonaFont, isInstalled(chosen) { return chosen }
        return Self.bundledSitelenPonaFont
    }

    /// The user's chosen sitelen pona font, when it is not installed (so the bundled one is used).
    public func missingSitelenPonaFont(isInstalled: (String) -> Bool) -> String? {
        guard let chosen = sitelenPonaFont, !isInstalled(chosen) else { return nil }
        return chosen
    }

    /// Notes about values that could not be read, for the user.
    public var problems: [String] {
        unreadableFields.keys.sorted().map { key in
            let value = unreadableFields[key]?.literal ?? "?"
            if key == CodingKeys.keepHistory.rawValue {
                return "settings.json: keepHistory is \(value), which is not on or off; history stays off until you switch it on again."
            }
            return "settings.json: \(key) is \(value), which this version cannot use; the default is used until you change it."
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case selectedModelID, lastDirection, keepHistory, translateAsYouType, translateBySentence, theme, acceptedModelLicence
        case sitelenPonaFont, firstRunHintDone, haptics
    }

    private mutating func fieldWasSet(_ key: CodingKeys) {
        unreadableFields[key.rawValue] = nil
        otherFields[key.rawValue] = nil
    }

    public init(from decoder: any Decoder) throws {
        let fields = try [String: JSONValue](from: decoder)
        let valueDecoder = JSONFile.decoder
        func read<T: Decodable>(_ key: CodingKeys, _ type: T.Type) -> T? {
            guard let raw = fields[key.rawValue], raw != .null else { return nil }
            guard let data = try? JSONFile.encoder.encode(raw), let value = try? valueDecoder.decode(T.self, from: data) else {
                unreadableFields[key.rawValue] = raw
                return nil
            }
            return value
        }
        selectedModelID = read(.selectedModelID, String.self)
        if let value = read(.lastDirection, TranslationDirection.self) { lastDirection = value }
        if let value = read(.keepHistory, Bool.self) { keepHistory = value }
        translateAsYouType = read(.translateAsYouType, Bool.self) ?? false
        translateBySentence = read(.translateBySentence, Bool.self) ?? true
        if let value = read(.theme, Theme.self) { theme = value }
        acceptedModelLicence = read(.acceptedModelLicence, Bool.self) ?? false
        sitelenPonaFont = read(.sitelenPonaFont, String.self)
        firstRunHintDone = read(.firstRunHintDone, Bool.self) ?? false
        haptics = read(.haptics, Bool.self) ?? true
        // Fail closed: history the user may have switched off stays off while unreadable.
        if unreadableFields[CodingKeys.keepHistory.rawValue] != nil { keepHistory = false }
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        otherFields = fields.filter { !known.contains($0.key) }.merging(unreadableFields) { $1 }
        // The didSet observers do not run in an initialiser, so nothing above cleared these.
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for (key, value) in otherFields { try container.encode(value, forKey: AnyCodingKey(key)) }
        func write<T: Encodable>(_ key: CodingKeys, _ value: T?) throws {
            guard unreadableFields[key.rawValue] == nil, let value else { return }
            try container.encode(value, forKey: AnyCodingKey(key.rawValue))
        }
        try write(.selectedModelID, selectedModelID)
        try write(.lastDirection, lastDirection)
        try write(.keepHistory, keepHistory)
        try write(.translateAsYouType, translateAsYouType)
        try write(.translateBySentence, translateBySentence)
        try write(.theme, theme)
        try write(.acceptedModelLicence, acceptedModelLicence)
        try write(.sitelenPonaFont, sitelenPonaFont)
        try write(.firstRunHintDone, firstRunHintDone)
        try write(.haptics, haptics)
    }
}

/// Reads and changes `settings.json`, shared safely by every process on the device: a change
/// touches only the fields it sets, applied to what is on disk now, under a lock.
public struct SettingsStore: Sendable {
    public let url: URL
    var file: SharedFile<AppSettings>

    public init(url: URL) {
        self.url = url
        file = SharedFile(url: url)
    }

    /// The settings, or the defaults; a damaged file is moved aside, and it and any field that
    /// could not be read are reported in `problems`.
    public func load() -> (settings: AppSettings, problems: [String]) {
        let contents = file.read()
        let settings = contents.value ?? AppSettings()
        return (settings, [contents.problem].compactMap { $0 } + settings.problems)
    }

    /// Applies `change` to the settings on disk now, and writes them back.
    /// - Returns: the settings as written, and a problem found on the way.
    @discardableResult
    public func update(_ change: (inout AppSettings) -> Void) throws -> (settings: AppSettings, problem: String?) {
        let result = try file.change(from: AppSettings(), change)
        return (result.value, result.problem)
    }

    /// Writes `settings` whole (tests, and first-run setup).
    public func save(_ settings: AppSettings) throws {
        try update { $0 = settings }
    }
}
