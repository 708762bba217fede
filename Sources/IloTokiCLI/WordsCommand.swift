import Foundation
import IloTokiCore

/// `ilotoki words WORD…`: Toki Pona words in lipu Linku's dictionary.
struct WordsCommand {
    static let spec = CommandSpec(
        path: ["words"], summary: "Look up Toki Pona words in lipu Linku's dictionary (definitions in English).",
        operands: "WORD…", operandCount: 1...Int.max,
        options: [],
        details: """
            Each word gets lipu Linku's English definition, how widely it is used and the words to see also;
            a word the dictionary does not have is an error (status 1), and the others are still shown.
            Words from lipu Linku (linku.la), CC BY-SA 4.0. The list is build/words/linku-words.json of a
            checkout (scripts/fetch-words.sh), share/ilotoki/linku-words.json beside an installed ilotoki,
            or the file $ILOTOKI_WORDS names.
            """)

    let context: CommandContext
    let arguments: ParsedArguments

    @MainActor
    func run() async throws -> Int32 {
        let console = context.console
        guard let url = WordList.locate(environment: context.environment, executable: FileSystem.runningExecutable) else {
            throw CLIError("the dictionary of Toki Pona words is not here: run scripts/fetch-words.sh, or set ILOTOKI_WORDS to its file.")
        }
        let words: WordList
        do {
            words = try WordList(contentsOf: url)
        } catch {
            throw CLIError(error.message)
        }
        let strings = UIStrings(language: .english)
        var unknown: [String] = []
        for word in arguments.operands {
            guard let entry = words.entry(for: word) else {
                unknown.append(word)
                continue
            }
            let card = MainScreen.wordCard(entry, strings)
            console.out(console.bold(card.word) + (card.usage.isEmpty ? "" : console.dim("  (\(card.usage))")) + "\n")
            console.out("  \(card.definition)\n")
            if !card.seeAlso.isEmpty { console.out(console.dim("  see also: " + card.seeAlso.joined(separator: ", ")) + "\n") }
        }
        if console.stdoutIsTerminal { console.out(console.dim("lipu Linku (linku.la), CC BY-SA 4.0") + "\n") }
        for word in unknown {
            console.error("'\(word)' is not a Toki Pona word in lipu Linku's dictionary (\(words.count) words).")
        }
        return unknown.isEmpty ? CLI.Status.ok : CLI.Status.failure
    }
}
