/// A language ilo toki translates between. Toki Pona is always on one side.
public enum Language: String, CaseIterable, Codable, Sendable, Hashable {
    case tokiPona = "tok"
    case english = "en"
    case russian = "ru"
    case vietnamese = "vi"

    /// The code used in settings, history and on the command line: `tok`, `en`, `ru`, `vi`.
    public var code: String { rawValue }

    /// The name the models were trained with in their prompts (always English).
    public var promptName: String {
        switch self {
        case .tokiPona: "Toki Pona"
        case .english: "English"
        case .russian: "Russian"
        case .vietnamese: "Vietnamese"
        }
    }

    /// The language's name for itself, shown to people.
    public var endonym: String {
        switch self {
        case .tokiPona: "toki pona"
        case .english: "English"
        case .russian: "Русский"
        case .vietnamese: "Tiếng Việt"
        }
    }

    /// The languages Toki Pona is translated to and from.
    public static let others: [Language] = [.english, .russian, .vietnamese]

    /// Looks a language up by code (`tok`, `en`, `ru`, `vi`), case-insensitively.
    public init?(code: String) {
        self.init(rawValue: code.lowercased())
    }
}
