import Foundation
import IloTokiCore
import IloTokiLLM

/// `ilotoki translate`: translates text from the arguments, or each line of standard input.
struct TranslateCommand {
    static let spec = CommandSpec(
        path: ["translate"],
        summary: "Translate text (from the arguments, or each line of standard input).",
        operands: "[TEXT…]",
        operandCount: 0...Int.max,
        options: [
            OptionSpec("--from", short: "f", .required("LANG"), help: "Source language: tok, en, ru or vi."),
            OptionSpec("--to", short: "t", .required("LANG"), help: "Target language: tok, en, ru or vi."),
            OptionSpec("--model", short: "m", .required("PATH"), help: "A GGUF model file to translate with."),
            OptionSpec(
                "--format", .required("FORMAT"),
                help: "Prompt format of a --model file: sourceTarget (default) or queryAnswer."),
            OptionSpec("--threads", .required("N"), help: "Decoding threads (default: the performance cores)."),
        ],
        details: """
            Toki Pona is always on one side. Without --from and --to, Toki Pona is translated
            to English. The translation streams to standard output as it is generated.
            """
    )

    let context: CommandContext
    let arguments: ParsedArguments

    func run() async throws -> Int32 {
        let direction = try Self.direction(from: arguments.value("--from"), to: arguments.value("--to"))
        let format = try Self.format(arguments.value("--format"))
        guard let path = arguments.value("--model") else {
            throw UsageError(message: "no model given: pass --model PATH.", command: "translate")
        }
        var options = Engine.Options()
        if let threads = arguments.value("--threads") {
            guard let count = Int(threads), count > 0 else {
                throw UsageError(message: "--threads needs a positive number, not '\(threads)'.", command: "translate")
            }
            options.threads = count
        }
        let engine = try await LLMTranslationEngine.load(path: path, options: options)
        let translator = Translator(engine: engine, format: format)
        let text = arguments.operands.joined(separator: " ")
        for try await progress in translator.translate(text, direction: direction) {
            context.console.out(progress.addition)
        }
        context.console.out("\n")
        return CLI.Status.ok
    }

    /// The direction from `--from`/`--to`: Toki Pona → English when neither is given; the
    /// missing side is Toki Pona, or English when the given side is Toki Pona.
    static func direction(from: String?, to: String?) throws -> TranslationDirection {
        func language(_ code: String, _ option: String) throws -> Language {
            guard let language = Language(code: code) else {
                throw UsageError(message: "\(option) '\(code)' is not a language; use tok, en, ru or vi.", command: "translate")
            }
            return language
        }
        let source = try from.map { try language($0, "--from") }
        let target = try to.map { try language($0, "--to") }
        switch (source, target) {
        case (nil, nil): return .tokiPonaToEnglish
        case (let source?, nil): return source == .tokiPona ? .tokiPonaToEnglish : .toTokiPona(from: source)
        case (nil, let target?): return target == .tokiPona ? .englishToTokiPona : .fromTokiPona(to: target)
        case (let source?, let target?):
            guard let direction = TranslationDirection(from: source, to: target) else {
                throw UsageError(
                    message: "cannot translate \(source.code) to \(target.code): Toki Pona must be on exactly one side.",
                    command: "translate")
            }
            return direction
        }
    }

    static func format(_ name: String?) throws -> PromptFormat {
        guard let name else { return .sourceTarget }
        guard let format = PromptFormat(rawValue: name) else {
            throw UsageError(message: "--format '\(name)' is not a prompt format; use sourceTarget or queryAnswer.", command: "translate")
        }
        return format
    }
}
