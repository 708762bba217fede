import Foundation
import IloTokiBench
import IloTokiCore

/// `ilotoki bench`: its options read into `Benchmark.Settings`, and the model to measure found;
/// the measuring is `IloTokiBench`'s.
struct BenchCommand {
    static let spec = CommandSpec(
        path: ["bench"],
        summary: "Measure load time, time to first token, prefill and decode speed, page faults and memory.",
        operands: "", operandCount: 0...0,
        options: [
            OptionSpec("--model", short: "m", .required("ID|PATH"), help: "A model id or a GGUF file (default: the model in use)."),
            OptionSpec("--format", .required("FORMAT"), help: PromptFormat.optionHelp),
            OptionSpec("--threads", .required("N,N,…"), help: "Thread counts to sweep (default: the performance cores)."),
            OptionSpec("--max-tokens", .required("N"), help: "Tokens generated per prompt (default 32)."),
            OptionSpec("--prompts", .required("N"), help: "Run only the first N of the 36 prompts."),
            OptionSpec("--to", .required("LANG"), help: "Run only the prompts into this language (tok, en, ru or vi)."),
            OptionSpec(
                "--selection", .required("KIND"), help: "argmax (default), greedy (llama.cpp's sampler) or chain (top-k/top-p/temperature)."
            ),
            OptionSpec("--logits-all", help: "Request logits for every prompt token, not only the last."),
            OptionSpec(
                "--head", .required("HEAD"),
                help:
                    "auto (default: the first prompts alternate the heads, then the faster is used), trimmed (only the target language's rows, checked) or full (llama.cpp's)."
            ),
            OptionSpec("--evict", help: "Page the model out of memory before each prompt, as a phone does to an app in the background."),
            OptionSpec(
                "--restore", .required("on|off"),
                help: "Read the model's missing pages back in one pass before decoding (on, the default) or let them fault back (off)."),
            OptionSpec(
                "--lines", .required("FILE|set"),
                help:
                    "Translate real lines instead of the 36 prompts, as the command line does: each with its own length, its direction detected, its answer ending at its line's end (set: the 112 lines written for the bench, 32 English, 32 Russian and 16 Vietnamese into Toki Pona and 32 Toki Pona into English). With --batch, also together."
            ),
            OptionSpec(
                "--prefix", .required("reuse|fresh"),
                help:
                    "Start each prompt from the cached cells of the beginning it shares with earlier ones (reuse, the default) or evaluate every prompt whole (fresh, for comparing: the same tokens)."
            ),
            OptionSpec(
                "--few-shot",
                help:
                    "Give each prompt three example translations first, so the base test model answers in the target language; each answer ends at its line's end, as a translation does."
            ),
            OptionSpec(
                "--batch", .required("N,N,…"),
                help: "Also decode the prompts together, N at a time for each N (with llama.cpp's head), and compare with one at a time."),
            OptionSpec("--json", help: "Write the figures as JSON."),
        ],
        details: """
            Generation is not cut at line ends or stop sequences here: every prompt runs to
            --max-tokens (or an end-of-generation token), as llama-bench's tg does. Decode speed
            counts the tokens evaluated after the prompt. scripts/bench-side-by-side.sh runs this
            and llama.cpp's llama-bench on the same file, alternately, and prints the ratios.

            With --batch, the same prompts then run as one batch for each N: N sequences decoded
            together, a finished one's slot taking the next prompt. Each batch reports its wall
            time from start to the last token, its first piece, its aggregate decode speed (all
            sequences' tokens over the decode steps' time), and whether every prompt's tokens are
            the ones the first N gave. `--to tok --prompts 8 --batch 1,8` is an 8-sentence
            paragraph into Toki Pona, sentence by sentence against all at once.
            """)

    let context: CommandContext
    let arguments: ParsedArguments

    @MainActor
    func run() async throws -> Int32 {
        var settings = Benchmark.Settings(modelPath: try modelPath())
        settings.maxTokens = try positive("--max-tokens") ?? 32
        settings.promptLimit = try positive("--prompts") ?? Int.max
        settings.format = try TranslateCommand.format(arguments.value("--format"), command: "bench")
        settings.selection = try choice("--selection", default: .argmax, "use argmax, greedy or chain.")
        settings.head = try choice("--head", default: .auto, "use auto, trimmed or full.")
        settings.threadCounts = try arguments.value("--threads").map { list in
            try list.split(separator: ",").map { part -> Int in
                guard let count = Int(part.trimmingCharacters(in: .whitespaces)), count > 0 else {
                    throw UsageError(message: "--threads takes positive numbers separated by commas, not '\(list)'.", command: "bench")
                }
                return count
            }
        }
        settings.target = try arguments.value("--to").map { code -> Language in
            guard let language = Language(rawValue: code) else {
                throw UsageError(message: "--to '\(code)': use tok, en, ru or vi.", command: "bench")
            }
            return language
        }
        settings.lines = arguments.value("--lines").map { $0 == "set" ? .set : .file($0) }
        settings.json = arguments.has("--json")
        settings.evict = arguments.has("--evict")
        settings.logitsForAllPromptTokens = arguments.has("--logits-all")
        settings.fewShot = arguments.has("--few-shot")
        switch arguments.value("--restore") ?? "on" {
        case "on": settings.restore = true
        case "off": settings.restore = false
        case let other: throw UsageError(message: "--restore '\(other)': use on or off.", command: "bench")
        }
        switch arguments.value("--prefix") ?? "reuse" {
        case "reuse": settings.reusePrefix = true
        case "fresh": settings.reusePrefix = false
        case let other: throw UsageError(message: "--prefix '\(other)': use reuse or fresh.", command: "bench")
        }
        settings.batchSizes = try arguments.value("--batch").map { list in
            try list.split(separator: ",").map { part -> Int in
                guard let count = Int(part.trimmingCharacters(in: .whitespaces)), (1...Benchmark.largestBatch).contains(count) else {
                    throw UsageError(
                        message: "--batch takes numbers from 1 to \(Benchmark.largestBatch) separated by commas, not '\(list)'.",
                        command: "bench")
                }
                return count
            }
        }
        let console = context.console
        console.out(try await Benchmark(settings) { console.err($0) }.run())
        return CLI.Status.ok
    }

    /// An option whose value names one of `Value`'s cases (`default` when it is not given).
    private func choice<Value: RawRepresentable<String>>(_ option: String, default value: Value, _ hint: String) throws -> Value {
        guard let given = arguments.value(option) else { return value }
        guard let chosen = Value(rawValue: given) else { throw UsageError(message: "\(option) '\(given)': \(hint)", command: "bench") }
        return chosen
    }

    @MainActor
    private func modelPath() throws -> String {
        if let name = arguments.value("--model") {
            if FileManager.default.fileExists(atPath: name) { return name }
            let model = try context.prepareModel()
            guard let choice = model.store.choice(id: name), model.store.isAvailable(choice) else {
                throw CLIError("'\(name)' is neither an installed model nor a file. Run `ilotoki models` to see the models.")
            }
            return model.store.fileURL(for: choice).path
        }
        let model = try context.prepareModel()
        guard let usable = model.usableModel else { throw TranslateCommand.notInstalled(model.modelToDownload, named: nil) }
        return model.store.fileURL(for: usable).path
    }

    private func positive(_ option: String) throws -> Int? {
        try arguments.value(option).map { value in
            guard let number = Int(value), number > 0 else {
                throw UsageError(message: "\(option) needs a positive number, not '\(value)'.", command: "bench")
            }
            return number
        }
    }
}
