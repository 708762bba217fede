import Foundation

/// The plain completion prompt a fine-tuned model was trained on (no chat template).
///
/// A model only answers to its own format, and the wrong one does not fail loudly: it
/// produces fluent text in the wrong language. So the format always comes from the model
/// that is loaded, and the tests pin both byte for byte.
public enum PromptFormat: String, Codable, CaseIterable, Sendable {
    /// All MiLMMT-based models:
    /// `Translate this from {S} to {T}:\n{S}: {text}\n{T}:`
    case sourceTarget
    /// The older Gemma 2 fine-tune: `Translate {S} to {T}.\nQuery: {text}\nAnswer:`
    case queryAnswer

    /// Builds the prompt for one piece of text, with the rules that end its translation.
    ///
    /// The text is trimmed and NFC-normalised first (Vietnamese typed with combining marks
    /// must reach the model as the precomposed letters it was trained on).
    /// - Parameters:
    ///   - text: what the user typed (one segment of it).
    ///   - direction: source and target language.
    public func translationPrompt(for text: String, direction: TranslationDirection) -> TranslationPrompt {
        let source = TranslationPrompt.prepare(text)
        let from = direction.source.promptName
        let to = direction.target.promptName
        let prompt: String
        switch self {
        case .sourceTarget:
            prompt = "Translate this from \(from) to \(to):\n\(from): \(source)\n\(to):"
        case .queryAnswer:
            prompt = "Translate \(from) to \(to).\nQuery: \(source)\nAnswer:"
        }
        return TranslationPrompt(
            sourceText: source,
            prompt: prompt,
            targetLanguage: direction.target,
            stopSequences: stopSequences(for: direction),
            maxLines: source.split(separator: "\n", omittingEmptySubsequences: false).count
        )
    }

    /// The lines that mean the model has finished and started a new example.
    public func stopSequences(for direction: TranslationDirection) -> [String] {
        switch self {
        case .sourceTarget: ["\n\(direction.source.promptName):", "\n\(direction.target.promptName):"]
        case .queryAnswer: ["\nQuery:", "\nAnswer:"]
        }
    }

    /// The format a person names: its code (`sourceTarget`) or the name the apps show
    /// (`source/target`), in any case, with any separator (`source-target`, `query_answer`).
    public init?(name: String) {
        let letters = { (text: String) in String(text.lowercased().unicodeScalars.filter { CharacterSet.letters.contains($0) }) }
        guard let format = Self.allCases.first(where: { letters($0.rawValue) == letters(name) }) else { return nil }
        self = format
    }

    /// Every format's code, for help and errors: "sourceTarget or queryAnswer".
    public static var codes: String { spelled(allCases.map(\.rawValue)) }

    /// Every format as the apps show it with its code: "source/target (sourceTarget) or
    /// query/answer (queryAnswer)".
    public static var names: String { spelled(allCases.map { "\($0.displayName) (\($0.rawValue))" }) }

    /// The help line of a `--format` option that takes a model file's format.
    public static var optionHelp: String { "Prompt format of a --model file: \(codes) (default: \(PromptFormat.sourceTarget.rawValue))." }

    private static func spelled(_ items: [String]) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " or " + items[items.count - 1]
    }

    /// A short name for people ("source/target", "query/answer").
    public var displayName: String {
        switch self {
        case .sourceTarget: "source/target"
        case .queryAnswer: "query/answer"
        }
    }
}

/// A prompt ready for the engine, with the rules that end its translation.
public struct TranslationPrompt: Equatable, Sendable {
    /// The source text as it went into the prompt (trimmed, NFC).
    public let sourceText: String
    /// The complete prompt.
    public let prompt: String
    /// The language the translation is written in (the engine computes only the output rows
    /// it can use).
    public let targetLanguage: Language
    /// The translation ends when the model starts one of these lines.
    public let stopSequences: [String]
    /// The translation ends before it would have more lines than the source: models that do
    /// not stop by themselves must not ramble on until the token limit.
    public let maxLines: Int

    public init(sourceText: String, prompt: String, targetLanguage: Language, stopSequences: [String], maxLines: Int) {
        self.sourceText = sourceText
        self.prompt = prompt
        self.targetLanguage = targetLanguage
        self.stopSequences = stopSequences
        self.maxLines = maxLines
    }

    /// Trims and NFC-normalises text typed by a person.
    public static func prepare(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    }
}

/// The translation as it streams in.
///
/// The models answer after `{T}:` with a space. It is stripped from the first piece as it
/// arrives, not from the finished text, so the text on screen never jumps left.
public struct TranslationOutput: Equatable, Sendable {
    /// What has been shown so far.
    public private(set) var text = ""

    public init() {}

    /// Adds a streamed piece and returns the part of it that is shown.
    @discardableResult
    public mutating func append(_ piece: String) -> String {
        var visible = Substring(piece)
        if text.isEmpty {
            // Until something is shown, leading spaces belong to the separator (a first
            // piece may be only " ").
            visible = visible.drop { $0 == " " }
        }
        text += visible
        return String(visible)
    }
}
