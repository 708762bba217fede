import Foundation
import IloTokiCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ilotoki translate --file F [--output O]`: a plain text file line by line (as standard
/// input is read), or a SubRip subtitle file cue by cue, its numbers and times kept.
///
/// With `--output`, the translation is written to a file of its own beside `O` and moved onto
/// `O` once it is complete: an interrupted or failed run leaves `O` as it was, never half
/// written. `O` may not be the input itself (under any name: the same file is refused).
struct FileTranslation {
    let input: URL
    let output: URL?

    enum Kind { case lines, subtitles }

    var kind: Kind { input.pathExtension.lowercased() == "srt" ? .subtitles : .lines }

    /// Checks the names before any model is loaded.
    /// - Throws: `UsageError` for an output that is the input, `CLIError` for an input that
    ///   cannot be read.
    init(input path: String, output outputPath: String?) throws {
        input = URL(fileURLWithPath: path).standardizedFileURL
        output = outputPath.map { URL(fileURLWithPath: $0).standardizedFileURL }
        var info = stat()
        guard stat(input.path, &info) == 0 else {
            throw CLIError("Cannot read \(path): \(String(cString: strerror(errno))).")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw CLIError("\(path) is not a file.") }
        guard access(input.path, R_OK) == 0 else { throw CLIError("Cannot read \(path): \(String(cString: strerror(errno))).") }
        if let output {
            var written = stat()
            let same =
                output == input || (stat(output.path, &written) == 0 && written.st_dev == info.st_dev && written.st_ino == info.st_ino)
            if same {
                throw UsageError(
                    message: "--output \(outputPath ?? "") is the input file; the translation never writes over its source.",
                    command: "translate")
            }
        }
    }

    /// Points standard input at the file (and standard output at the output's temporary file),
    /// runs `body`, and puts the output in place if `body` says the work is complete.
    /// - Returns: `body`'s status.
    @MainActor
    func run(_ body: @MainActor () async throws -> (status: Int32, complete: Bool)) async throws -> Int32 {
        let descriptor = open(input.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIError("Cannot read \(input.path): \(String(cString: strerror(errno))).") }
        dup2(descriptor, STDIN_FILENO)
        close(descriptor)
        guard let output else { return try await body().status }

        let directory = output.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(output.lastPathComponent).\(getpid()).part")
        let file = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw CLIError("Cannot write \(output.path): \(String(cString: strerror(errno))).") }
        let savedOutput = dup(STDOUT_FILENO)
        dup2(file, STDOUT_FILENO)
        close(file)
        defer {
            dup2(savedOutput, STDOUT_FILENO)
            close(savedOutput)
        }
        let result: (status: Int32, complete: Bool)
        do {
            result = try await body()
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard result.complete else {
            unlink(temporary.path)
            return result.status
        }
        guard fsync(STDOUT_FILENO) == 0 || errno == EINVAL, rename(temporary.path, output.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw CLIError("Cannot write \(output.path): \(reason).")
        }
        return result.status
    }
}

extension TranslateCommand {
    /// Translates a subtitle file read from standard input: each cue its own text, put back
    /// on as many lines as it had; a cue that fails keeps its own text and is named.
    /// - Returns: the status, and whether every cue was written.
    @MainActor
    func translateSubtitles(model: TranslatorModel, fixed: TranslationDirection?, batch: Int) async throws -> (
        status: Int32, complete: Bool
    ) {
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard let source = String(validating: data, as: UTF8.self) else {
            throw CLIError("The subtitle file is not UTF-8 text; convert it first (iconv -f cp1251 -t utf-8, for example).")
        }
        let subtitles: SubRip
        do {
            subtitles = try SubRip(parsing: source)
        } catch {
            throw CLIError("The file cannot be read as subtitles: \(error.localizedDescription).")
        }
        let progress = TranslationProgressLine(console: console, quiet: arguments.has("--quiet"), totalBytes: nil)
        defer { progress.finish() }
        var failed = false
        var direction = fixed ?? model.direction
        let groupSize = batch > 1 ? batch * Self.batchesPerGroup : 1
        for start in stride(from: 0, to: subtitles.cues.count, by: groupSize) {
            guard !console.outputStopped, !Task.isCancelled else { break }
            let cues = Array(subtitles.cues[start..<min(start + groupSize, subtitles.cues.count)])
            let answers = OrderedAnswers(count: cues.count) { [console] text in console.out(text) }
            var texts: [TextToTranslate] = []
            var places: [Int] = []
            for (place, cue) in cues.enumerated() {
                let text = cue.text
                guard !TranslationPrompt.prepare(text).isEmpty else {
                    answers.finish(place, end: subtitles.render(cue))
                    continue
                }
                if fixed == nil, let detected = try? model.direction(for: text) { direction = detected }
                texts.append(TextToTranslate(text, direction: direction))
                places.append(place)
                progress.read(sentences: 1)
            }
            guard !texts.isEmpty else { continue }
            let task = Task { @MainActor [texts, places] () -> Bool in
                do {
                    for try await update in model.translations(of: texts, bySentence: bySentence, outputLimit: outputLimit) {
                        switch update {
                        case .progress(let index, let translation) where translation.isFinal:
                            var cue = cues[places[index]]
                            cue.lines = SubRip.lines(translation.text, count: max(cue.lines.count, 1))
                            answers.finish(places[index], end: subtitles.render(cue))
                            progress.done(sentences: 1)
                        case .progress: break
                        case .failed(let index, let error):
                            let cue = cues[places[index]]
                            progress.clear()
                            console.error(
                                "cue \(cue.number.isEmpty ? String(start + places[index] + 1) : cue.number): \(CLI.message(for: error)) Its text is kept."
                            )
                            answers.finish(places[index], end: subtitles.render(cue))
                            failed = true
                            progress.done(sentences: 1)
                        }
                        if console.outputStopped { break }
                    }
                    try Task.checkCancellation()
                    return answers.isComplete
                } catch {
                    return false
                }
            }
            let complete = await Interrupts.shared.whileRunning(onInterrupt: { _ in task.cancel() }) {
                await withTaskCancellationHandler {
                    await task.value
                } onCancel: {
                    task.cancel()
                }
            }
            guard complete else {
                progress.clear()
                if Task.isCancelled || Interrupts.shared.lastSignal != 0 {
                    console.err("\ninterrupted: the subtitles were not finished.\n")
                    return (Interrupts.shared.exitStatus, false)
                }
                throw CLIError("The translation stopped before the subtitles were finished.")
            }
        }
        if let failure = console.outputFailure { throw CLIError("Cannot write the translation: \(failure).") }
        return (failed ? CLI.Status.failure : CLI.Status.ok, !console.outputStopped)
    }
}
