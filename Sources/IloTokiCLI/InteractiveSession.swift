import Foundation
import IloTokiCore

/// `ilotoki` on a terminal with no text: a prompt, streamed answers, a few `:` commands.
@MainActor
struct InteractiveSession {
    let console: Console
    let model: TranslatorModel
    /// The direction given on the command line, if any; otherwise it follows the text.
    let fixed: TranslationDirection?

    func run() async -> Int32 {
        var direction = fixed ?? model.direction
        let name = model.loadedModel?.displayName ?? "the model"
        console.out(console.dim("ilotoki with \(name). Type a sentence; :help for commands, Ctrl-D to leave.\n"))
        var lines = StandardInput.lines().makeAsyncIterator()
        while true {
            console.out(console.bold("\(direction.source.code)→\(direction.target.code) › "))
            guard let line = await lines.next() else {
                console.out("\n")
                return CLI.Status.ok
            }
            guard let text = line.text else {
                console.error("that line is not valid UTF-8 text.")
                continue
            }
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix(":") {
                if let changed = command(trimmed, direction: direction) {
                    direction = changed
                } else if trimmed == ":quit" || trimmed == ":q" {
                    return CLI.Status.ok
                }
                continue
            }
            if fixed == nil, let detected = TokiPonaDetector.direction(for: trimmed, current: direction) {
                direction = detected
                console.out(console.dim("(\(direction.source.code)→\(direction.target.code))\n"))
            }
            model.setDirection(direction)
            let translator = TranslateCommand(context: CommandContext(console: console, environment: console.environment), arguments: ParsedArguments(command: ["translate"]))
            switch await translator.stream(trimmed, direction: direction, model: model, json: false) {
            case .done: break
            case .interrupted: console.out(console.dim("(stopped)\n"))
            case .failed(let error): console.error(CLI.message(for: error))
            }
        }
    }

    /// Runs a `:` command; returns the new direction when it changed.
    private func command(_ text: String, direction: TranslationDirection) -> TranslationDirection? {
        let words = text.dropFirst().split(separator: " ").map(String.init)
        switch words.first {
        case "swap":
            return direction.swapped
        case "to", "from":
            guard words.count == 2, let language = Language(code: words[1]) else {
                console.error("say :\(words[0]) tok, en, ru or vi.")
                return nil
            }
            let wanted: TranslationDirection? =
                words[0] == "to"
                ? (language == .tokiPona ? .toTokiPona(from: direction.otherLanguage) : .fromTokiPona(to: language))
                : (language == .tokiPona ? .fromTokiPona(to: direction.otherLanguage) : .toTokiPona(from: language))
            return wanted
        case "history":
            for entry in model.history.entries.prefix(10).reversed() {
                console.out("\(entry.olin ? "★ " : "")\(entry.direction)  \(entry.source) → \(entry.result)\n")
            }
            if model.history.entries.isEmpty { console.out(console.dim("(no translations yet)\n")) }
            return nil
        case "help":
            console.out(
                """
                :swap          turn the direction round
                :to LANG       translate into LANG (tok, en, ru, vi)
                :from LANG     translate from LANG
                :history       the last translations
                :quit          leave (or Ctrl-D)
                Ctrl-C stops a translation.

                """)
            return nil
        case "quit", "q":
            return nil
        default:
            console.error("unknown command \(text); :help lists them.")
            return nil
        }
    }
}
