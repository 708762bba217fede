import Foundation

/// A Toki Pona word's entry in lipu Linku's dictionary (linku.la, CC BY-SA 4.0): its English
/// definition, the words to see also, how much it is used, and its sitelen pona glyph.
public struct WordEntry: Codable, Equatable, Hashable, Sendable {
    /// How widely the word is used, in lipu Linku's categories.
    public enum Usage: String, Codable, Sendable, CaseIterable {
        case core, common, uncommon, obscure, sandbox
    }

    public var word: String
    /// lipu Linku's English definition (English whatever the app's language).
    public var definition: String
    public var seeAlso: [String]
    public var usage: Usage?
    /// The glyph's UCSUR code point, "U+F1936".
    public var ucsur: String?

    public init(word: String, definition: String, seeAlso: [String] = [], usage: Usage? = nil, ucsur: String? = nil) {
        self.word = word
        self.definition = definition
        self.seeAlso = seeAlso
        self.usage = usage
        self.ucsur = ucsur
    }

    /// The sitelen pona glyph as text (a UCSUR private-use character, which a sitelen pona font
    /// draws), or nil where lipu Linku gives none.
    public var glyph: String? {
        guard let ucsur, ucsur.hasPrefix("U+"), let value = UInt32(ucsur.dropFirst(2), radix: 16),
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return String(Character(scalar))
    }

    private enum CodingKeys: String, CodingKey { case word, definition, seeAlso, usage, ucsur }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        word = try container.decode(String.self, forKey: .word)
        definition = try container.decode(String.self, forKey: .definition)
        seeAlso = try container.decodeIfPresent([String].self, forKey: .seeAlso) ?? []
        // A category this build does not know is shown as none, not refused.
        usage = (try? container.decodeIfPresent(String.self, forKey: .usage)).flatMap { $0.flatMap(Usage.init(rawValue:)) }
        ucsur = try container.decodeIfPresent(String.self, forKey: .ucsur)
    }
}

/// Why a word list could not be read.
public struct WordListError: Error, Equatable, Sendable, LocalizedError {
    public var message: String
    public var errorDescription: String? { message }
}

/// lipu Linku's Toki Pona words, as `scripts/fetch-words.sh` keeps them (`linku-words.json`):
/// looked up by word, whatever its case or the punctuation around it.
public struct WordList: Sendable, Equatable {
    public static let fileName = "linku-words.json"

    public let entries: [WordEntry]
    private let index: [String: Int]

    public init(entries: [WordEntry]) {
        self.entries = entries
        var index: [String: Int] = [:]
        for (position, entry) in entries.enumerated() where index[entry.word.lowercased()] == nil {
            index[entry.word.lowercased()] = position
        }
        self.index = index
    }

    /// Reads a word list file.
    /// - Throws: `WordListError` naming the file: missing, unreadable, not a word list, empty.
    public init(contentsOf url: URL) throws(WordListError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw WordListError(message: "The word list '\(url.path)' could not be read: \(error.localizedDescription)")
        }
        struct File: Decodable { var words: [WordEntry] }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw WordListError(message: "The word list '\(url.path)' is not one (run scripts/fetch-words.sh to make it again).")
        }
        guard !file.words.isEmpty else { throw WordListError(message: "The word list '\(url.path)' holds no words.") }
        self.init(entries: file.words)
    }

    public var count: Int { entries.count }

    /// The entry for a word as it was typed or selected ("Moku,", "«pona»"), or nil.
    public func entry(for text: some StringProtocol) -> WordEntry? {
        let word = Self.bareWord(text)
        return index[word].map { entries[$0] }
    }

    /// The distinct words of `text` that the list has, in order of first appearance.
    public func words(in text: String) -> [String] {
        var seen: Set<String> = []
        var found: [String] = []
        for part in text.split(whereSeparator: { !$0.isLetter }) {
            let word = part.lowercased()
            if index[word] != nil, seen.insert(word).inserted { found.append(word) }
        }
        return found
    }

    /// The word without what surrounds it (quotes, punctuation, spaces), lowercased.
    static func bareWord(_ text: some StringProtocol) -> String {
        String(text).trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters).union(.symbols)).lowercased()
    }

    /// Where the word list lies for a program at `executable`: `ILOTOKI_WORDS` when set, then
    /// beside the program once installed (`../share/ilotoki/`), then `build/words/` of the
    /// checkout it was built in. Nil when none is there.
    public static func locate(environment: [String: String], executable: String) -> URL? {
        if let path = environment["ILOTOKI_WORDS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return FileSystem.bundledDataPlaces(executable: executable, installed: "", built: "words")
            .map { $0.appendingPathComponent(fileName) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }
}
