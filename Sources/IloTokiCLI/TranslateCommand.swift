import Foundation
import IloTokiCore
import IloTokiEngineLive
import IloTokiLocking

/// `ilotoki translate`: translates the arguments, each line of standard input, or, on a
/// terminal with no text, runs an interactive session.
struct TranslateCommand {
    static let spec = CommandSpec(
        path: ["translate"],
        summary: "Translate text: the arguments, each line of standard input, or interactively.",
        operands: "[TEXT…]",
        operandCount: 0...Int.max,
        options: [
            OptionSpec("--from", short: "f", .required("LANG"), help: "Source language: tok, en, ru or vi (default: detected)."),
            OptionSpec("--to", short: "t", .required("LANG"), help: "Target language: tok, en, ru or vi."),
            OptionSpec("--model", short: "m", .required("ID|PATH"), help: "A model id (see `ilotoki models`) or a GGUF file."),
            OptionSpec(
                "--format", .required("FORMAT"),
                help: PromptFormat.optionHelp),
            OptionSpec("--json", help: "One JSON object per translation, on one line each."),
            OptionSpec(
                "--file", .required("FILE"),
                help: "Translate a file: .srt subtitles cue by cue (numbers and times kept), any other file line by line."),
            OptionSpec(
                "--output", short: "o", .required("FILE"),
                help:
                    "With --file: write the translation there (put in place once complete; never over the input) instead of standard output."
            ),
            OptionSpec("--threads", .required("N"), help: "Decoding threads (default: the performance cores)."),
            OptionSpec(
                "--batch", .required("N"),
                help: "Lines of standard input (and sentences) translated at once (default: what fits in memory; 1: one at a time)."),
            OptionSpec("--whole-lines", help: "Translate each line whole instead of sentence by sentence."),
            OptionSpec(
                "--max-tokens", .required("N"),
                help: "At most N tokens of translation per sentence (default: 4 per source token plus 32, at most 512)."),
            OptionSpec("--quiet", short: "q", help: "No progress line on the terminal while standard input is translated."),
            OptionSpec(
                "--head", .required("HEAD"),
                help:
                    "auto (default: whichever is faster here, measured over the first translations and kept), trimmed (only the target language's output rows, checked, same output) or full (llama.cpp's)."
            ),
        ],
        details: """
            Toki Pona is always on one side. Without --from and --to the direction is detected:
            Toki Pona goes into the language you used last (English at first), English, Russian
            and Vietnamese go into Toki Pona. A word that is the same in Toki Pona and English
            ("a", "mama", "open") follows the direction you used last. Vietnamese typed without
            its marks (Toi yeu ban) reads as English: add --from vi (or --to, for the other way).

            Each line is translated sentence by sentence (the models were trained on single
            sentences), the sentences together, and put back with the line's own spacing;
            --whole-lines sends each line to the model whole.

            With text on standard input, every line is translated on its own and answered by
            exactly one line, in input order: an empty line for an empty line or for a line that
            failed (--json: an object with "error"), so output and input line up. Up to --batch
            lines are decoded together; each answer is written as soon as it and the ones before
            it are done, the first unfinished one streaming. A line cut
            short by Ctrl-C (or SIGTERM, SIGHUP) is not written as finished: standard error
            says which line it was. The translation streams to standard output as it is made.
            A line may be of any length (a paragraph, a document on one line): it is translated
            sentence by sentence as it is read. Only a sentence too long for the model with no
            comma, semicolon, colon or dash to split it at is refused, by its line number and
            first words, and the rest is translated. When standard output goes to a file or a
            pipe and the work takes more than a few seconds, one line on the terminal says how
            far it is (sentences done, the rate, and with input from a file the share done and
            the time left); --quiet leaves it out.
            Translations are kept in the history (see `ilotoki history`) unless it is switched off.

            Interactive session (a terminal and no text): type a sentence; the arrow keys,
            Ctrl-A and Ctrl-E edit it, the up arrow brings back an earlier one. :to LANG and
            :from LANG fix the direction (:auto detects it again), :swap turns it round,
            :history shows the last translations, :help lists these. Ctrl-C stops a
            translation or drops the line being typed; Ctrl-D leaves.
            """
    )

    let context: CommandContext
    let arguments: ParsedArguments

    var console: Console { context.console }

    @MainActor
    func run() async throws -> Int32 {
        // Usage errors first.
        _ = try Self.direction(from: arguments.value("--from"), to: arguments.value("--to"), current: .tokiPonaToEnglish)
        let threads = try arguments.value("--threads").map { value -> Int in
            guard let count = Int(value), count > 0 else {
                throw UsageError(message: "--threads needs a positive number, not '\(value)'.", command: "translate")
            }
            return count
        }
        let format = try Self.format(arguments.value("--format"), command: "translate")
        if let value = arguments.value("--max-tokens"), (Int(value) ?? 0) < 1 {
            throw UsageError(message: "--max-tokens needs a positive number, not '\(value)'.", command: "translate")
        }
        let modelFile = arguments.value("--model").flatMap { FileManager.default.fileExists(atPath: $0) ? URL(fileURLWithPath: $0) : nil }
        let head = try Self.outputHead(arguments.value("--head"))
        let batch = try arguments.value("--batch").map { value -> BatchSize in
            guard let count = Int(value), count > 0 else {
                throw UsageError(message: "--batch needs a positive number, not '\(value)'.", command: "translate")
            }
            return .fixed(count)
        }
        let file = try arguments.value("--file").map { try FileTranslation(input: $0, output: arguments.value("--output")) }
        if file == nil, arguments.value("--output") != nil {
            throw UsageError(message: "--output goes with --file (standard output can be redirected).", command: "translate")
        }
        if file != nil, !arguments.operands.isEmpty {
            throw UsageError(message: "--file translates a file: give it no text as well.", command: "translate")
        }
        if file?.kind == .subtitles, arguments.has("--json") {
            throw UsageError(message: "--json writes lines of text; subtitles are written as subtitles.", command: "translate")
        }
        let model = try context.prepareModel(
            keeping: modelFile.map { [$0] } ?? [], engine: LiveEngineOptions(threads: threads, head: head, batch: batch ?? .fitting),
            needsHome: modelFile == nil, watchesMemoryPressure: arguments.operands.isEmpty)
        let reported = model.notices.count
        let fixed = try Self.direction(from: arguments.value("--from"), to: arguments.value("--to"), current: model.direction)
        try await loadModel(model, format: format)
        do {
            let lines = (batch ?? .fitting).count(available: DeviceMemory.available())
            let status: Int32
            if let file {
                status = try await file.run {
                    switch file.kind {
                    case .subtitles: return try await translateSubtitles(model: model, fixed: fixed, batch: lines)
                    case .lines:
                        let status = await translateLines(model: model, fixed: fixed, json: arguments.has("--json"), batch: lines)
                        return (status, status <= CLI.Status.failure && Interrupts.shared.lastSignal == 0 && !console.outputStopped)
                    }
                }
            } else {
                status = try await translate(with: model, fixed: fixed, lines: lines)
            }
            await model.flushWrites()  // the history reaches the disk before the process ends
            context.reportNotices(of: model, after: reported)
            return status
        } catch {
            await model.flushWrites()
            context.reportNotices(of: model, after: reported)
            throw error
        }
    }

    @MainActor
    private func translate(with model: TranslatorModel, fixed: TranslationDirection?, lines: Int) async throws -> Int32 {
        let json = arguments.has("--json")
        if !arguments.operands.isEmpty {
            let text = arguments.operands.joined(separator: " ")
            let direction = try fixed ?? model.direction(for: text)
            return try await translateOne(text, direction: direction, model: model, json: json)
        }
        if console.stdinIsTerminal {
            // A terminal session answers people, not programs: JSON wants its text given.
            if json {
                throw UsageError(
                    message: "--json needs the text: as arguments, or on standard input from a pipe or a file.", command: "translate")
            }
            return await InteractiveSession(console: console, model: model, fixed: fixed).run()
        }
        return await translateLines(model: model, fixed: fixed, json: json, batch: lines)
    }

    /// Loads the model named with `--model`, or the one the apps would use.
    @MainActor
    private func loadModel(_ model: TranslatorModel, format: PromptFormat) async throws {
        try await Self.load(model, named: arguments.value("--model"), format: format)
    }

    /// Loads the model `name` names (an id or a file), or the one the apps would use.
    @MainActor
    static func load(_ model: TranslatorModel, named name: String?, format: PromptFormat) async throws {
        if let name {
            if let choice = model.store.choice(id: name) {
                guard model.store.isAvailable(choice) else { throw Self.notInstalled(choice.catalogEntry, named: choice.displayName) }
                await model.run(.useForSession(id: choice.id))
            } else if FileManager.default.fileExists(atPath: name) {
                await model.run(.useFileForSession(path: name, format: format))
            } else {
                throw CLIError("'\(name)' is neither a model id nor a file. Run `ilotoki models` to see the models.")
            }
        } else {
            guard model.usableModel != nil else { throw Self.notInstalled(model.modelToDownload, named: nil) }
            await model.loadUsableModel()
        }
        if case .failed(let reason) = model.modelState { throw CLIError(reason) }
        guard model.modelState == .ready else { throw CLIError("The model could not be loaded.") }
    }

    /// The `--head` option's value (`auto` when it is not given).
    static func outputHead(_ value: String?) throws -> LiveEngineOptions.Head {
        guard let value else { return .auto }
        guard let head = LiveEngineOptions.Head(rawValue: value) else {
            throw UsageError(message: "--head '\(value)': use auto, trimmed or full.", command: "translate")
        }
        return head
    }

    static func notInstalled(_ entry: CatalogEntry?, named name: String?) -> CLIError {
        guard let entry else { return CLIError("\(name ?? "The model") is not on this device.") }
        let what = name.map { "\($0) is not downloaded yet" } ?? "No translation model is installed yet"
        return CLIError(
            "\(what). Download \(entry.displayName) (\(entry.sizeText())) with: ilotoki models download \(entry.id)")
    }

    // MARK: - Translating

    /// Translates one text and writes it out; the status says how it went.
    @MainActor
    private func translateOne(_ text: String, direction: TranslationDirection, model: TranslatorModel, json: Bool) async throws -> Int32 {
        model.perform(.setDirection(direction: direction))
        switch await stream(text, direction: direction, model: model, json: json) {
        case .done:
            return CLI.Status.ok
        case .interrupted:
            console.err("\ninterrupted: the translation is incomplete.\n")
            return Interrupts.shared.exitStatus
        case .failed(let error): throw error
        }
    }

    enum Outcome {
        case done
        /// Stopped by a signal: what was written of the translation is not all of it.
        case interrupted
        case failed(Error)
    }

    /// Streams one translation to standard output, ending it with a newline once it is
    /// complete (or, with `json`, writes one object when done). A translation cut short gets
    /// no newline and no object: it is never passed off as finished. `stopRequested`, when
    /// given, holds a stop asked for before this translation's own handler was in place (the
    /// interactive session's Ctrl-C): it is taken, and the translation stops at once.
    @MainActor
    func stream(_ text: String, direction: TranslationDirection, model: TranslatorModel, json: Bool, stopRequested: Locked<Bool>? = nil)
        async -> Outcome
    {
        let task = Task { @MainActor () -> Outcome in
            var last: TranslationProgress?
            do {
                for try await progress in model.translation(
                    of: text, direction: direction, bySentence: bySentence, outputLimit: outputLimit)
                {
                    if !json { console.out(progress.addition) }
                    last = progress
                    if console.outputStopped { break }
                }
                try Task.checkCancellation()
                if let last, last.isFinal {
                    console.out(json ? TranslationJSON.object(text, direction: direction, progress: last, model: model) + "\n" : "\n")
                } else if !console.outputStopped {
                    return .interrupted
                }
                return .done
            } catch is CancellationError {
                return .interrupted
            } catch {
                if !json, last?.text.isEmpty == false { console.out("\n") }
                return .failed(error)
            }
        }
        // A signal before this handler was in place cancelled the command's own task: the
        // translation follows it, so a signal is never lost between two lines.
        return await Interrupts.shared.whileRunning(onInterrupt: { _ in task.cancel() }) {
            // Taken after this handler is in place: a Ctrl-C from then on comes to it.
            if stopRequested?.exchange(false) == true { task.cancel() }
            return await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    /// Sentence by sentence unless `--whole-lines` (then each line whole).
    var bySentence: Bool { !arguments.has("--whole-lines") }

    /// `--max-tokens`, checked in `run` before anything is loaded.
    var outputLimit: Int? { arguments.value("--max-tokens").flatMap(Int.init) }

    /// Lines taken together, in batches' worth: enough that the slots keep refilling, few
    /// enough that the lines read ahead of the answers stay a handful.
    static let batchesPerGroup = 4

    /// One translation per line of standard input, answered in order by exactly one line of
    /// output each, up to `batch` texts decoded together. A line of any length is translated
    /// (a long one in pieces that end where its sentences end, `LongLine`), read and written as
    /// it goes. A line that fails is answered by an empty line (or an object with `"error"`),
    /// named on standard error, and the status is then 1; a piece of a long line that fails
    /// leaves only its own place empty.
    @MainActor
    func translateLines(model: TranslatorModel, fixed: TranslationDirection?, json: Bool, batch: Int) async -> Int32 {
        var failed = false
        // The size first: the reader moves the file's offset as soon as it starts.
        let progress = TranslationProgressLine(console: console, quiet: arguments.has("--quiet"), totalBytes: StandardInput.size())
        let queue = LineQueue(StandardInput.lines())
        defer { progress.finish() }
        let lines = LinesInPieces()
        while !console.outputStopped, !Task.isCancelled {
            // A batch's finished slot takes the group's next sentence, so a group of several
            // batches' worth never waits for its slowest sentence before the next lines start.
            let group = await queue.next(limit: batch > 1 ? batch * Self.batchesPerGroup : 1)
            if group.isEmpty || Task.isCancelled { break }
            let answers = OrderedAnswers(count: group.count) { [console] text in console.out(text) }
            answers.onWritten = { place in
                let piece = group[place]
                progress.done(
                    sentences: 0, bytes: Int64((piece.text?.utf8.count ?? 0) + piece.spacing.utf8.count + (piece.endsLine ? 1 : 0)))
            }
            var texts: [TextToTranslate] = []
            var places: [Int] = []  // each text's place in the group
            var sentences: [Int] = []  // each text's sentences, for the progress line
            for (place, piece) in group.enumerated() {
                guard let text = piece.text else {
                    progress.clear()
                    console.error("line \(piece.number) of standard input is not valid UTF-8 text.")
                    answers.finish(
                        place,
                        end: json ? TranslationJSON.failure(source: nil, direction: fixed, message: "not valid UTF-8 text") + "\n" : "\n")
                    failed = true
                    continue
                }
                if TranslationPrompt.prepare(text).isEmpty {
                    answers.finish(place, end: json ? TranslationJSON.empty(text, direction: fixed ?? model.direction) + "\n" : "\n")
                    continue
                }
                do {
                    // Each line's direction follows the one before, as when they come one by one;
                    // the pieces of a long line all go the way its first went.
                    let direction = try fixed ?? lines.direction(of: piece) ?? model.direction(for: text)
                    lines.begin(piece, direction: direction)
                    model.perform(.setDirection(direction: direction))
                    texts.append(TextToTranslate(text, direction: direction, keepsInHistory: piece.beginsLine && piece.endsLine))
                    places.append(place)
                    sentences.append(Sentences.split(text).count)
                    progress.read(sentences: sentences[sentences.count - 1])
                } catch {
                    progress.clear()
                    console.error("line \(piece.number): \(CLI.message(for: error))")
                    answers.finish(
                        place, end: end(of: piece, failure: CLI.message(for: error), direction: nil, json: json, lines: lines, model: model)
                    )
                    failed = true
                }
            }
            guard !texts.isEmpty else { continue }
            switch await stream(
                texts, places: places, pieces: group, into: answers, model: model, json: json, lines: lines,
                progress: (progress, sentences))
            {
            case .done(let someFailed): failed = failed || someFailed
            case .interrupted:
                let line = answers.isComplete ? group.last!.number : group[answers.head].number
                progress.clear()
                console.err("\ninterrupted: line \(line) of standard input was not finished.\n")
                return Interrupts.shared.exitStatus
            }
        }
        if Task.isCancelled {
            // A signal while waiting for the next line: every line so far was answered.
            return Interrupts.shared.exitStatus
        }
        return failed ? CLI.Status.failure : CLI.Status.ok
    }

    /// What ends a piece's answer once its text is written: the line's newline, or the white
    /// space that followed it in a long line; with `--json`, the line's object and a newline
    /// once its last piece is done (a long line's pieces are gathered until then).
    @MainActor
    private func end(
        of piece: InputPiece, translation: (text: String, stats: TranslationStats)? = nil, failure: String? = nil,
        direction: TranslationDirection?, json: Bool, lines: LinesInPieces, model: TranslatorModel
    ) -> String {
        guard json else { return piece.endsLine ? "\n" : piece.spacing }
        let source = piece.text ?? ""
        if piece.beginsLine, piece.endsLine {
            if let failure { return TranslationJSON.failure(source: piece.text, direction: direction, message: failure) + "\n" }
            return TranslationJSON.object(
                source, direction: direction ?? .tokiPonaToEnglish, result: translation?.text ?? "",
                stats: translation?.stats ?? TranslationStats(),
                model: model) + "\n"
        }
        lines.gather(piece, translation: translation, failure: failure)
        guard piece.endsLine, let whole = lines.end(piece) else { return "" }
        if let failure = whole.failure {
            return TranslationJSON.failure(source: whole.source, direction: whole.direction, message: failure) + "\n"
        }
        return TranslationJSON.object(
            whole.source, direction: whole.direction ?? direction ?? .tokiPonaToEnglish, result: whole.result, stats: whole.stats,
            model: model) + "\n"
    }

    enum GroupOutcome {
        case done(someFailed: Bool)
        /// Stopped by a signal: the line at the answers' head is not finished.
        case interrupted
    }

    /// Translates a group of pieces together, writing each answer in its turn.
    @MainActor
    private func stream(
        _ texts: [TextToTranslate], places: [Int], pieces: [InputPiece], into answers: OrderedAnswers, model: TranslatorModel,
        json: Bool, lines: LinesInPieces, progress: (line: TranslationProgressLine, sentences: [Int])
    ) async -> GroupOutcome {
        let bySentence = bySentence
        let task = Task { @MainActor () -> GroupOutcome in
            var someFailed = false
            // Sentences of each text counted as done on the progress line: its finished chunks,
            // all of them once it is final (a sentence split at its clauses is still one).
            var credited = Array(repeating: 0, count: texts.count)
            @MainActor func credit(_ index: Int, _ done: Int) {
                let target = min(done, progress.sentences[index])
                guard target > credited[index] else { return }
                progress.line.done(sentences: target - credited[index])
                credited[index] = target
            }
            @MainActor func fail(_ index: Int, _ error: Error) {
                let text = texts[index]
                let piece = pieces[places[index]]
                credit(index, .max)
                progress.line.clear()
                console.error("line \(piece.number): \(CLI.message(for: error))")
                answers.finish(
                    places[index],
                    end: end(of: piece, failure: CLI.message(for: error), direction: text.direction, json: json, lines: lines, model: model)
                )
                someFailed = true
            }
            do {
                for try await update in model.translations(of: texts, bySentence: bySentence, outputLimit: outputLimit) {
                    switch update {
                    case .progress(let index, let translation):
                        if !json { answers.add(translation.addition, to: places[index]) }
                        credit(index, translation.isFinal ? .max : translation.finishedChunks)
                        if translation.isFinal {
                            let text = texts[index]
                            answers.finish(
                                places[index],
                                end: end(
                                    of: pieces[places[index]], translation: (translation.text, translation.stats),
                                    direction: text.direction,
                                    json: json, lines: lines, model: model))
                        }
                    case .failed(let index, let error):
                        fail(index, error)
                    }
                    if console.outputStopped { break }
                }
                try Task.checkCancellation()
            } catch is CancellationError {
                return .interrupted
            } catch {
                // The engine failed as a whole: every piece not answered yet fails with it.
                for (index, place) in places.enumerated() where place >= answers.head { fail(index, error) }
                return .done(someFailed: true)
            }
            if !answers.isComplete, !console.outputStopped { return .interrupted }
            return .done(someFailed: someFailed)
        }
        // A signal before this handler was in place cancelled the command's own task: the
        // translation follows it, so a signal is never lost between two groups.
        return await Interrupts.shared.whileRunning(onInterrupt: { _ in task.cancel() }) {
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                task.cancel()
            }
        }
    }

    // MARK: - Options

    /// The languages `--from` and `--to` name, checked (a usage error names a code that is none).
    static func languages(from: String?, to: String?) throws -> (source: Language?, target: Language?) {
        func language(_ code: String, _ option: String) throws -> Language {
            guard let language = Language(code: code) else {
                throw UsageError(message: "\(option) '\(code)' is not a language; use tok, en, ru or vi.", command: "translate")
            }
            return language
        }
        return (try from.map { try language($0, "--from") }, try to.map { try language($0, "--to") })
    }

    /// The direction `--from`/`--to` fix, against the direction used last (see
    /// `TranslationDirection.chosen`); `nil` when neither is given (then the text decides).
    static func direction(from: String?, to: String?, current: TranslationDirection) throws -> TranslationDirection? {
        let (source, target) = try languages(from: from, to: to)
        do {
            return try TranslationDirection.chosen(from: source, to: target, current: current)
        } catch let error as DirectionChoiceError {
            throw UsageError(message: error.localizedDescription, command: "translate")
        }
    }

    /// The prompt format `--format` names (`sourceTarget` when absent); a usage error that
    /// points at `command`'s help otherwise.
    static func format(_ name: String?, command: String) throws -> PromptFormat {
        guard let name else { return .sourceTarget }
        guard let format = PromptFormat(name: name) else {
            throw UsageError(message: "--format '\(name)' is not a prompt format; use \(PromptFormat.names).", command: command)
        }
        return format
    }
}
