import Foundation

/// Which way a translation goes. Toki Pona is always one side.
public struct TranslationDirection: Hashable, Codable, Sendable, CustomStringConvertible {
    public let source: Language
    public let target: Language

    /// Creates a direction; `nil` unless exactly one side is Toki Pona.
    public init?(from source: Language, to target: Language) {
        guard (source == .tokiPona) != (target == .tokiPona) else { return nil }
        self.source = source
        self.target = target
    }

    /// Toki Pona into `language`.
    public static func fromTokiPona(to language: Language) -> TranslationDirection {
        TranslationDirection(from: .tokiPona, to: language) ?? .tokiPonaToEnglish
    }

    /// `language` into Toki Pona.
    public static func toTokiPona(from language: Language) -> TranslationDirection {
        TranslationDirection(from: language, to: .tokiPona) ?? .englishToTokiPona
    }

    public static let tokiPonaToEnglish = TranslationDirection(uncheckedFrom: .tokiPona, to: .english)
    public static let englishToTokiPona = TranslationDirection(uncheckedFrom: .english, to: .tokiPona)

    /// All six valid directions: Toki Pona to each other language, then each into Toki Pona.
    public static let all: [TranslationDirection] =
        Language.others.map { fromTokiPona(to: $0) } + Language.others.map { toTokiPona(from: $0) }

    /// The same pair the other way round (what the swap knob does).
    public var swapped: TranslationDirection { TranslationDirection(uncheckedFrom: target, to: source) }

    /// The language on the side that is not Toki Pona.
    public var otherLanguage: Language { source == .tokiPona ? target : source }

    /// Whether the source side is Toki Pona.
    public var isFromTokiPona: Bool { source == .tokiPona }

    /// The same direction with its other language replaced (Toki Pona stays where it is).
    public func with(otherLanguage language: Language) -> TranslationDirection {
        guard language != .tokiPona else { return self }
        return isFromTokiPona ? .fromTokiPona(to: language) : .toTokiPona(from: language)
    }

    /// `tok→en`.
    public var description: String { "\(source.code)→\(target.code)" }

    private init(uncheckedFrom source: Language, to target: Language) {
        self.source = source
        self.target = target
    }

    private enum CodingKeys: String, CodingKey { case source, target }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let source = try container.decode(Language.self, forKey: .source)
        let target = try container.decode(Language.self, forKey: .target)
        guard let direction = TranslationDirection(from: source, to: target) else {
            throw DecodingError.dataCorruptedError(
                forKey: .target, in: container, debugDescription: "Toki Pona must be on exactly one side of \(source.code)→\(target.code)")
        }
        self = direction
    }
}

/// A direction the user named that cannot be.
public struct DirectionChoiceError: Error, LocalizedError, Equatable, Sendable {
    public let source: Language
    public let target: Language

    public var errorDescription: String? {
        "ilo toki cannot translate \(source.code) to \(target.code): Toki Pona must be on exactly one side."
    }
}

extension TranslationDirection {
    /// The direction the user named: both sides (`--from ru --to tok`), or one, the other
    /// then being Toki Pona, or, when the named side is Toki Pona, the other language of
    /// `current` (`--from tok` translates into the language used last). `nil` when neither
    /// side is named (the text decides).
    /// - Throws: `DirectionChoiceError` when both sides are named and Toki Pona is not on exactly one.
    public static func chosen(from source: Language?, to target: Language?, current: TranslationDirection) throws -> TranslationDirection? {
        switch (source, target) {
        case (nil, nil): return nil
        case (let source?, nil): return current.translating(from: source)
        case (nil, let target?): return current.translating(into: target)
        case (let source?, let target?):
            guard let direction = TranslationDirection(from: source, to: target) else {
                throw DirectionChoiceError(source: source, target: target)
            }
            return direction
        }
    }

    /// Into `language`, keeping this direction's other language where `language` is Toki Pona.
    public func translating(into language: Language) -> TranslationDirection {
        language == .tokiPona ? .toTokiPona(from: otherLanguage) : .fromTokiPona(to: language)
    }

    /// From `language`, keeping this direction's other language where `language` is Toki Pona.
    public func translating(from language: Language) -> TranslationDirection {
        language == .tokiPona ? .fromTokiPona(to: otherLanguage) : .toTokiPona(from: language)
    }
}
