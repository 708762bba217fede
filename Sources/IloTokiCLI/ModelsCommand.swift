import Foundation
import IloTokiCore

/// `ilotoki models …`: list, download, remove, add and verify models.
struct ModelsCommand {
    static let listSpec = CommandSpec(
        path: ["models"], summary: "List the models: installed, partly downloaded, sizes, the default.",
        operands: "", operandCount: 0...0, options: [],
        details: "Subcommands: download ID, remove ID, add PATH, verify ID (see `ilotoki models download --help`).")
    static let downloadSpec = CommandSpec(
        path: ["models", "download"], summary: "Download a model (Ctrl-C pauses; run it again to resume).",
        operands: "ID", operandCount: 1...1,
        options: [OptionSpec("--accept-licence", help: "Accept the model licence (Gemma Terms of Use) without asking.")],
        details: "Models come from Hugging Face, or from the mirror in HF_ENDPOINT. Nothing is downloaded unless you ask.")
    static let removeSpec = CommandSpec(
        path: ["models", "remove"], summary: "Delete a downloaded model, or forget an added one.",
        operands: "ID", operandCount: 1...1, options: [], details: "")
    static let addSpec = CommandSpec(
        path: ["models", "add"], summary: "Add a GGUF model file from elsewhere on this device.",
        operands: "PATH", operandCount: 1...1,
        options: [
            OptionSpec("--format", .required("FORMAT"), help: "The prompt format it was trained on: \(PromptFormat.names)."),
            OptionSpec("--name", .required("NAME"), help: "The name to show (default: the file name)."),
        ],
        details: "The file stays where it is; ilo toki only remembers it.")
    static let verifySpec = CommandSpec(
        path: ["models", "verify"], summary: "Check a downloaded model against the sha256 recorded when it was installed.",
        operands: "ID", operandCount: 1...1, options: [], details: "")

    let context: CommandContext
    let arguments: ParsedArguments

    private var console: Console { context.console }
    /// The command line speaks English: its per cents as Core formats them.
    private static let format = Formatting(language: .english)

    // MARK: - list

    @MainActor
    func list() async throws -> Int32 {
        let model = try context.prepareModel()
        let store = model.store
        let access = context.hubAccess
        let source =
            (access.mirror.map { "the mirror HF_ENDPOINT=\($0)" } ?? "https://huggingface.co (set HF_ENDPOINT to use a mirror)")
            + (access.token == nil ? "" : ", with the token from HF_TOKEN")
        console.out("Models in \(store.directories.models.path)\nDownloads from \(source)\n\n")
        let selected = model.usableModel?.id ?? model.selectedModel?.id
        var rows: [[String]] = [["", "ID", "NAME", "SIZE", "STATE"]]
        for status in store.statuses() {
            let entry = status.entry
            var state: String
            switch status.state {
            case .installed: state = "installed"
            case .notInstalled: state = "not downloaded"
            case .partial: state = "partial \(Self.format.percent(status.fractionDownloaded))"
            case .damaged(let bytes): state = "damaged (\(bytes) bytes): remove and download again"
            }
            if entry.id == store.catalog.defaultEntry?.id { state += ", default" }
            if entry.deprecated { state += ", deprecated: a newer model is available" }
            rows.append([entry.id == selected ? "*" : "", entry.id, entry.displayName, entry.sizeText(exact: status.expectedBytes), state])
        }
        for sideloaded in store.sideloadedModels() {
            let size = store.bytes(of: .sideloaded(sideloaded)).map { ByteSize.text($0) } ?? "?"
            let state = sideloaded.isMissing ? "MISSING: \(sideloaded.path)" : "added: \(sideloaded.path) (\(sideloaded.format.rawValue))"
            rows.append([sideloaded.id == selected ? "*" : "", sideloaded.id, sideloaded.name, size, state])
        }
        let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            var line = ""
            for column in 0..<4 { line += row[column].padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0) }
            console.out(line + row[4] + "\n")
        }
        console.out("\n* = used for translating. Download with: ilotoki models download ID\n")
        return CLI.Status.ok
    }

    // MARK: - download

    @MainActor
    func download() async throws -> Int32 {
        let model = try context.prepareModel()
        let id = arguments.operands[0]
        guard let entry = model.store.catalog.entry(id: id) else {
            throw CLIError("There is no model '\(id)' to download. Run `ilotoki models` to see the models.")
        }
        if model.store.state(of: entry) == .installed {
            console.out("\(entry.displayName) is already installed.\n")
            return CLI.Status.ok
        }
        if model.needsLicenceAcceptance {
            let licence = ModelCatalog.modelLicence
            console.err("\(licence.summary)\nThe terms: \(licence.url.absoluteString)\n")
            if arguments.has("--accept-licence") {
                model.perform(.acceptLicence)
            } else if console.stdinIsTerminal {
                console.err(
                    "Accept the \(licence.name) and download \(entry.displayName) (\(entry.sizeText(exact: model.store.expectedBytes(for: entry))))? [y/N] "
                )
                let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                guard answer == "y" || answer == "yes" else {
                    console.err("Nothing was downloaded.\n")
                    return CLI.Status.failure
                }
                model.perform(.acceptLicence)
            } else {
                throw CLIError("The model comes under the \(licence.name); run again with --accept-licence to accept them.")
            }
            await model.flushWrites()
        }

        // A signal that came while the model was being prepared ends the command before a byte.
        try Task.checkCancellation()
        // The same download the apps run, through the app model (its library shows it too).
        guard let events = model.downloadEvents(entry) else { throw CLIError("The model licence was not accepted.") }
        let bar = ProgressBar(console: console, total: model.store.expectedBytes(for: entry))
        // The events are read to their end on a task of their own: a signal cancels the
        // command's task (CLI.run), whose own reading would end at once, before the pause had
        // let go of the files and said so. Here the cancellation pauses the download, also when
        // it came before the download began, and the pause's event ends the command.
        let reading = Task { @MainActor in
            for try await event in events {
                switch event {
                case .started(let offset, _):
                    if offset > 0 { bar.note("resuming at \(ByteSize.text(offset))") }
                case .progress(let progress): bar.show(progress)
                case .stalled(_, let reason): bar.note("connection dropped (\(reason)); retrying")
                case .verifying(let sha256Known):
                    bar.note(
                        sha256Known
                            ? "verifying size and sha256"
                            : "verifying size only: neither the catalog nor the server gives a sha256 to compare with")
                case .paused(let progress):
                    bar.finish()
                    console.err(
                        "Paused at \(Self.format.percent(progress.fraction)): the partial download is kept. Run `ilotoki models download \(entry.id)` again to resume.\n"
                    )
                    return Interrupts.shared.exitStatus
                case .installed(let file):
                    bar.finish()
                    console.out("Installed \(entry.displayName) (\(ByteSize.text(file.bytes)), sha256 \(file.sha256)).\n")
                    return CLI.Status.ok
                }
            }
            bar.finish()
            throw CLIError(
                "The download of \(entry.displayName) ended before its file was complete. Run `ilotoki models download \(entry.id)` again to resume."
            )
        }
        return try await withTaskCancellationHandler {
            try await reading.value
        } onCancel: {
            Task { @MainActor in model.perform(.pauseDownload) }
        }
    }

    // MARK: - remove, add, verify

    @MainActor
    func remove() async throws -> Int32 {
        let model = try context.prepareModel()
        let id = arguments.operands[0]
        guard let choice = model.store.choice(id: id) else {
            throw CLIError("There is no model '\(id)'. Run `ilotoki models` to see the models.")
        }
        switch choice {
        case .catalog(let entry):
            let bytes = model.store.bytesOnDisk(for: entry)
            try model.store.delete(entry)
            console.out("Deleted \(entry.displayName) (\(ByteSize.text(bytes)) freed).\n")
        case .sideloaded(let sideloaded):
            try model.store.removeSideloaded(id: sideloaded.id)
            console.out("Forgot \(sideloaded.name); the file \(sideloaded.path) was not touched.\n")
        }
        return CLI.Status.ok
    }

    @MainActor
    func add() async throws -> Int32 {
        guard let formatName = arguments.value("--format") else {
            throw UsageError(
                message: "say which prompt format the model answers to with --format: \(PromptFormat.names).", command: "models add")
        }
        let format = try TranslateCommand.format(formatName, command: "models add")
        let model = try context.prepareModel()
        let request = ModelImport(path: arguments.operands[0], format: format, name: arguments.value("--name"))
        let added: SideloadedModel
        switch await model.run(.importModel(request)) {
        case .added(let model): added = model
        case .failed(let reason): throw CLIError(reason)
        case let other: throw CLIError("The model could not be added (\(other)).")
        }
        console.out("Added \(added.name) as \(added.id). Translate with it: ilotoki translate --model \(added.id) TEXT\n")
        return CLI.Status.ok
    }

    @MainActor
    func verify() async throws -> Int32 {
        let model = try context.prepareModel()
        let id = arguments.operands[0]
        guard let entry = model.store.catalog.entry(id: id) else {
            throw CLIError("There is no downloaded model '\(id)' to verify. Run `ilotoki models` to see the models.")
        }
        guard model.store.state(of: entry) == .installed else { throw TranslateCommand.notInstalled(entry, named: entry.displayName) }
        guard let recorded = entry.sha256 ?? model.store.recordedSHA256(for: entry) else {
            throw CLIError("No sha256 was recorded for \(entry.displayName); remove it and download it again to have one.")
        }
        console.err("Hashing \(entry.sizeText(exact: model.store.expectedBytes(for: entry)))…\n")
        let actual = try await SHA256.hashInBackground(fileAt: model.store.fileURL(for: entry))
        guard actual == recorded else {
            throw CLIError(
                "\(entry.displayName) is damaged: its sha256 is \(actual), expected \(recorded). Remove it and download it again.")
        }
        console.out("\(entry.displayName) is intact (sha256 \(actual)).\n")
        return CLI.Status.ok
    }
}

/// Download progress: a bar on a terminal, a plain line every few per cent otherwise.
final class ProgressBar: @unchecked Sendable {
    private let console: Console
    /// The file's size: the catalog's, or once the Hub's listing gave it, the download's.
    private var total: Int64?
    private var lastBucket: Int?
    private var drawn = false

    init(console: Console, total: Int64?) {
        self.console = console
        self.total = total
    }

    func show(_ progress: DownloadProgress) {
        let fraction = progress.fraction ?? 0
        let percent = Int(fraction * 100)
        let done = ByteSize.text(progress.bytes)
        if let known = progress.total { total = known }
        let all = total.map(ByteSize.text) ?? "?"
        let rate = ByteSize.rate(progress.bytesPerSecond)
        if console.stderrIsTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            console.err("\r\u{1B}[2K\(bar) \(percent)%  \(done) / \(all)  \(rate)")
            drawn = true
        } else if lastBucket != percent / 5 {
            // Without a terminal, a plain line every 5 %.
            console.err("downloaded \(percent)% (\(done) of \(all), \(rate))\n")
            lastBucket = percent / 5
        }
    }

    func note(_ text: String) {
        finish()
        console.err(text + "\n")
    }

    func finish() {
        if drawn { console.err("\n") }
        drawn = false
    }
}
