import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

/// lipu Linku's words: the list the build fetches (scripts/fetch-words.sh), looking a word up
/// as it was typed or selected, the words of a text, and every way a list file can be wrong.
@Suite struct WordListTests {
    let home = TemporaryDirectory("words")

    static let fixture = """
        {"source": "test", "words": [
          {"word": "moku", "definition": "eat, drink; food", "seeAlso": ["pan", "telo"], "usage": "core", "ucsur": "U+F1936"},
          {"word": "kijetesantakalu", "definition": "raccoon", "seeAlso": [], "usage": "common", "ucsur": "U+F1980"},
          {"word": "kokosila", "definition": "speaking a language other than Toki Pona", "seeAlso": [], "usage": "a category yet to come"}
        ]}
        """

    func write(_ text: String, to name: String) throws -> URL {
        let url = home.file(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func aWordIsFoundAsItWasTypedOrSelected() throws {
        let words = try WordList(contentsOf: write(Self.fixture, to: "words.json"))
        #expect(words.count == 3)
        for typed in ["moku", "Moku", "moku,", "«moku»", " moku.\n", "MOKU!"] {
            #expect(words.entry(for: typed)?.word == "moku", "\(typed)")
        }
        #expect(words.entry(for: "pan") == nil)
        #expect(words.entry(for: "") == nil)
        let moku = try #require(words.entry(for: "moku"))
        #expect(moku.seeAlso == ["pan", "telo"] && moku.usage == .core)
        #expect(moku.glyph == "\u{F1936}")
        // A category this build does not know, and no code point: shown as none.
        let kokosila = try #require(words.entry(for: "kokosila"))
        #expect(kokosila.usage == nil && kokosila.glyph == nil)
    }

    @Test func theWordsOfATextInOrderOnce() throws {
        let words = try WordList(contentsOf: write(Self.fixture, to: "words.json"))
        #expect(words.words(in: "mi moku. kijetesantakalu li moku e kili!") == ["moku", "kijetesantakalu"])
        #expect(words.words(in: "I love you") == [])
    }

    @Test func aFileThatIsNotAWordListSaysWhich() throws {
        let missing = home.file("none.json")
        #expect(throws: WordListError.self) { try WordList(contentsOf: missing) }
        do {
            _ = try WordList(contentsOf: missing)
        } catch {
            #expect(error.message.contains(missing.path))
        }
        for (name, text) in [("broken.json", "{\"words\": [{\"word\": 1}]}"), ("text.json", "mi moku"), ("empty.json", "{\"words\": []}")] {
            let url = try write(text, to: name)
            do {
                _ = try WordList(contentsOf: url)
                Issue.record("\(name) was read")
            } catch {
                #expect(error.message.contains(url.path), "\(name): \(error.message)")
            }
        }
    }

    /// The list the build ships: lipu Linku's 178 words, each with a definition, the glyphs of
    /// the words in UCSUR, and "see also" words that are themselves in the list.
    @Test func theShippedListHasLipuLinkusWords() throws {
        guard FileManager.default.fileExists(atPath: TestModels.wordList) else {
            Issue.record("\(TestModels.wordList) is missing: run scripts/fetch-words.sh")
            return
        }
        let words = try WordList(contentsOf: URL(fileURLWithPath: TestModels.wordList))
        #expect(words.count >= 170)
        #expect(words.entries.allSatisfy { !$0.word.isEmpty && !$0.definition.isEmpty })
        let moku = try #require(words.entry(for: "moku"))
        #expect(moku.definition.contains("eat"))
        #expect(moku.usage == .core && moku.glyph == "\u{F1936}")
        for word in ["toki", "pona", "jan", "sina", "mi", "li", "e", "kili", "olin"] {
            #expect(words.entry(for: word) != nil, "\(word)")
        }
        let seeAlso = words.entries.flatMap(\.seeAlso)
        #expect(!seeAlso.isEmpty)
        #expect(seeAlso.filter { words.entry(for: $0) != nil }.count * 10 >= seeAlso.count * 9, "most see-also words are entries too")
    }

    @Test func theListIsFoundBesideTheProgramOrWhereTheEnvironmentSays() throws {
        let installed = home.file("prefix/share/ilotoki/\(WordList.fileName)")
        try FileManager.default.createDirectory(at: installed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(Self.fixture.utf8).write(to: installed)
        let program = home.file("prefix/bin/ilotoki").path
        #expect(WordList.locate(environment: [:], executable: program)?.path == installed.standardizedFileURL.path)
        #expect(
            WordList.locate(environment: ["ILOTOKI_WORDS": "/elsewhere/words.json"], executable: program)?.path == "/elsewhere/words.json")
        #expect(WordList.locate(environment: [:], executable: home.file("other/bin/ilotoki").path) == nil)
    }
}
