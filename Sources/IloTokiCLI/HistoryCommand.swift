import Foundation
import IloTokiCore

/// `ilotoki history`: the translations kept on this device.
struct HistoryCommand {
    static let spec = CommandSpec(
        path: ["history"], summary: "Show the translation history (newest last), or clear it.",
        operands: "", operandCount: 0...0,
        options: [
            OptionSpec("--olin", help: "Only the favourites (olin)."),
            OptionSpec("--clear", help: "Delete the history; favourites are kept."),
        ],
        details: "The history is stored only on this device, readable only by you.")

    let context: CommandContext
    let arguments: ParsedArguments

    @MainActor
    func run() async throws -> Int32 {
        let model = try context.prepareModel()
        let console = context.console
        if arguments.has("--clear") {
            let before = model.history.entries.count
            model.perform(.clearHistory)
            await model.flushWrites()
            console.out(
                "Deleted \(before - model.history.entries.count) translations; \(model.history.favourites.count) favourites kept.\n")
            return CLI.Status.ok
        }
        let entries = arguments.has("--olin") ? model.history.favourites : model.history.entries
        if entries.isEmpty {
            console.out(arguments.has("--olin") ? "No favourites yet.\n" : "No translations yet.\n")
            if !model.settings.keepHistory { console.out("(History is switched off.)\n") }
            return CLI.Status.ok
        }
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        for entry in entries.reversed() {
            let mark = entry.olin ? "★ " : ""
            console.out(console.dim(formatter.string(from: entry.date) + "  \(entry.direction)") + "  \(mark)\(entry.source)\n")
            console.out("    \(entry.result)\n")
        }
        return CLI.Status.ok
    }
}
