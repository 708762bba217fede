import Foundation
import IloTokiCore
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ilotoki` on a terminal with no text: a prompt with line editing, streamed answers, a few
/// `:` commands.
@MainActor
struct InteractiveSession {
    let console: Console
    let model: TranslatorModel
    /// The direction given on the command line, if any; otherwise it follows the text until
    /// the user sets one with `:to`, `:from` or `:swap`.
    let fixed: TranslationDirection?

    func run() async -> Int32 {
        guard let editor = LineEditor() else {
            console.error("the terminal cannot be used for line editing; pipe the text in instead (echo TEXT | ilotoki).")
            return CLI.Status.failure
        }
        // Ctrl-C never ends the session: while a line is typed the editor reads it as a key,
        // while a translation runs the translation's own handler stops it, and in between
        // (the line just entered, the translation not yet started) it is kept here for the
        // translation to take. SIGTERM and SIGHUP end the session.
        let stopRequested = Locked(false)
        let session = Task { @MainActor in await loop(editor, stopRequested: stopRequested) }
        return await Interrupts.shared.whileRunning(onInterrupt: { number in
            if number == SIGINT { stopRequested.store(true) } else { session.cancel() }
        }) {
            await withTaskCancellationHandler {
                await session.value
            } onCancel: {
                session.cancel()
            }
        }
    }

    private func loop(_ editor: LineEditor, stopRequested: Locked<Bool>) async -> Int32 {
        var direction = fixed ?? model.direction
        var pinned = fixed != nil
        let name = model.loadedModel?.displayName ?? "the model"
        console.out(console.dim("ilotoki with \(name). Type a sentence; :help for commands, Ctrl-D to leave.\n"))
        while true {
            if Task.isCancelled { return Interrupts.shared.exitStatus }
            let prompt = console.bold("\(direction.source.code)→\(direction.target.code) › ")
            let input = await editor.read(prompt: prompt)
            // A Ctrl-C before the prompt was ready dropped the line being typed; it stops nothing.
            stopRequested.store(false)
            switch input {
            case .end:
                if Task.isCancelled { return Interrupts.shared.exitStatus }
                console.out("\n")
                return CLI.Status.ok
            case .cancelled:
                console.out("\n")  // Ctrl-C on the line being typed: a fresh prompt
                continue
            case .invalid:
                console.error("that line is not valid UTF-8 text.")
            case .line(let text):
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                editor.remember(trimmed)
                if trimmed.hasPrefix(":") {
                    switch command(trimmed, direction: direction) {
                    case .set(let chosen):
                        direction = chosen
                        pinned = true
                        model.perform(.setDirection(direction: chosen))
                    case .detect:
                        pinned = false
                        console.out(console.dim("(the direction follows the text again)\n"))
                    case .quit:
                        return CLI.Status.ok
                    case .none:
                        break
                    }
                    continue
                }
                if !pinned {
                    do {
                        let detected = try LanguageDetector.direction(for: trimmed, last: direction)
                        if detected != direction { console.out(console.dim("(\(detected.source.code)→\(detected.target.code))\n")) }
                        direction = detected
                    } catch {
                        console.error(CLI.message(for: error))
                        continue
                    }
                }
                model.perform(.setDirection(direction: direction))
                let translator = TranslateCommand(
                    context: CommandContext(console: console, environment: console.environment),
                    arguments: ParsedArguments(command: ["translate"]))
                switch await translator.stream(trimmed, direction: direction, model: model, json: false, stopRequested: stopRequested) {
                case .done: break
                case .interrupted:
                    console.out(console.dim("\n(stopped)\n"))
                    // SIGTERM or SIGHUP during a translation ends the session too.
                    if Task.isCancelled || Interrupts.shared.lastSignal != SIGINT { return Interrupts.shared.exitStatus }
                case .failed(let error): console.error(CLI.message(for: error))
                }
            }
        }
    }

    enum CommandResult {
        /// The direction is now this, and stays until changed.
        case set(TranslationDirection)
        /// The direction follows the text again.
        case detect
        case quit
        case none
    }

    /// Runs a `:` command.
    private func command(_ text: String, direction: TranslationDirection) -> CommandResult {
        let words = text.dropFirst().split(separator: " ").map(String.init)
        switch words.first {
        case "swap":
            return .set(direction.swapped)
        case "to", "from":
            guard words.count == 2, let language = Language(code: words[1]) else {
                console.error("say :\(words[0]) tok, en, ru or vi.")
                return .none
            }
            return .set(words[0] == "to" ? direction.translating(into: language) : direction.translating(from: language))
        case "auto":
            return .detect
        case "history":
            for entry in model.history.entries.prefix(10).reversed() {
                console.out("\(entry.olin ? "★ " : "")\(entry.direction)  \(entry.source) → \(entry.result)\n")
            }
            if model.history.entries.isEmpty { console.out(console.dim("(no translations yet)\n")) }
            return .none
        case "help":
            console.out(
                """
                :to LANG       translate into LANG (tok, en, ru, vi); the direction stays set
                :from LANG     translate from LANG
                :swap          turn the direction round
                :auto          let the direction follow the text again
                :history       the last translations
                :quit          leave (or Ctrl-D)
                Ctrl-C stops a translation, or drops the line being typed.

                """)
            return .none
        case "quit", "q":
            return .quit
        default:
            console.error("unknown command \(text); :help lists them.")
            return .none
        }
    }
}
