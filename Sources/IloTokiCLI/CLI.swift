import Foundation
import IloTokiCore
import IloTokiEngineLive

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `ilotoki` command line: the whole product in a terminal, over the same app model,
/// store and settings as the apps.
public enum CLI {
    public static let version = AboutPage.version

    /// Exit statuses.
    enum Status {
        static let ok: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 2
    }

    static let commands: [CommandSpec] = {
        var commands = [
            TranslateCommand.spec,
            ModelsCommand.listSpec,
            ModelsCommand.downloadSpec,
            ModelsCommand.removeSpec,
            ModelsCommand.addSpec,
            ModelsCommand.verifySpec,
            HistoryCommand.spec,
            WordsCommand.spec,
            BenchCommand.spec,
        ]
        #if canImport(IloTokiServer)
            commands.append(ServeCommand.spec)
        #endif
        return commands
    }()

    /// Holds SIGINT, SIGTERM and SIGHUP pending until `main` reads them: the process's first
    /// line, before any thread starts (threads inherit it).
    public static func holdInterrupts() { Interrupts.hold() }

    /// Runs the process's own command line (`CommandLine`) and returns the exit status.
    ///
    /// The arguments are read as the bytes they are: one that is not valid UTF-8 is refused,
    /// as a line of standard input is, instead of becoming U+FFFD. A closed standard output
    /// ends the command quietly (SIGPIPE is ignored, so writing reports it instead).
    @MainActor
    public static func main() async -> Int32 {
        signal(SIGPIPE, SIG_IGN)
        Interrupts.install()
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index], let text = String(validatingCString: raw) else {
                Console(environment: ProcessInfo.processInfo.environment).error(
                    "argument \(index) is not valid UTF-8 text; ilo toki translates text only.")
                return Status.failure
            }
            arguments.append(text)
        }
        let status = await run(arguments)
        // Every way out comes through here: a finished command, an error, a closed pipe, a
        // full disk, a signal, the end of the interactive session. Leaving stops the engine
        // and waits for its work, rather than `_exit`: llama.cpp's process-wide state is
        // destroyed by `exit`, and a decode still running on the engine's thread would crash
        // the process on its way out, while `_exit` would skip what the C and Swift runtimes
        // still flush. The command has already written what it keeps (history, settings).
        LiveEngineLoader.endAllWork()
        return status
    }

    /// Runs the command line and returns the exit status.
    /// - Parameters:
    ///   - arguments: the arguments without the program name.
    ///   - environment: the process environment.
    @MainActor
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        let console = Console(environment: environment)
        let status = await runCommand(arguments, console: console, environment: environment)
        if let failure = console.outputFailure {
            console.error("cannot write to standard output: \(failure.lowercased()).")
            return Status.failure
        }
        return status
    }

    @MainActor
    private static func runCommand(_ arguments: [String], console: Console, environment: [String: String]) async -> Int32 {
        if arguments == ["--version"] || arguments == ["-V"] {
            console.out("ilotoki \(version) (\(LiveEngineLoader().backendDescription))\n")
            return Status.ok
        }
        if arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            console.out(Help.overview(commands: commands))
            return Status.ok
        }
        // What the package installs: the manual page and the completions, from the same table.
        if arguments == ["help", "--man"] {
            console.out(ManualPage.roff(commands: commands, version: version))
            return Status.ok
        }
        if arguments == ["help", "--man", "ilotoki-gtk"] {
            console.out(ManualPage.gtkRoff(version: version))
            return Status.ok
        }
        if arguments.count == 3, arguments[0...1] == ["help", "--completions"] {
            switch arguments[2] {
            case "bash": console.out(Completions.bash(commands: commands, defaultCommand: TranslateCommand.spec.path))
            case "zsh": console.out(Completions.zsh(commands: commands, defaultCommand: TranslateCommand.spec.path))
            default:
                console.error("completions are made for bash and zsh, not '\(arguments[2])'.")
                return Status.usage
            }
            return Status.ok
        }
        if arguments.first == "help", arguments.count > 1 {
            let path = Array(arguments.dropFirst())
            guard let spec = commands.first(where: { $0.path == path }) else {
                console.error("there is no command '\(path.joined(separator: " "))'. Run `ilotoki --help` for the list.")
                return Status.usage
            }
            console.out(Help.command(spec))
            return Status.ok
        }

        let spec: CommandSpec
        let parsed: ParsedArguments
        do {
            (spec, parsed) = try parseArguments(arguments, commands: commands, defaultCommand: TranslateCommand.spec.path)
        } catch let error as UsageError {
            console.error(error.message + " Run `ilotoki \(error.command.map { $0 + " " } ?? "")--help` for usage.")
            return Status.usage
        } catch {
            console.error("\(error)")
            return Status.usage
        }
        if parsed.has("--help") {
            console.out(Help.command(spec))
            return Status.ok
        }

        let context = CommandContext(console: console, environment: environment, verbose: parsed.has("--verbose"))
        // Before anything can load a model: llama.cpp's lines go to our log, not the terminal.
        LiveApp.writeEngineLog(directories: context.directories, echo: context.verbose)
        // A signal while no command handles it itself (waiting for the next line of input)
        // ends the command the way it would end the command's own work.
        let work = Task { @MainActor in await dispatch(spec, parsed, context: context) }
        return await Interrupts.shared.whileRunning(onInterrupt: { _ in work.cancel() }) {
            await work.value
        }
    }

    @MainActor
    private static func dispatch(_ spec: CommandSpec, _ parsed: ParsedArguments, context: CommandContext) async -> Int32 {
        let console = context.console
        do {
            switch spec.path {
            case TranslateCommand.spec.path: return try await TranslateCommand(context: context, arguments: parsed).run()
            case ModelsCommand.listSpec.path: return try await ModelsCommand(context: context, arguments: parsed).list()
            case ModelsCommand.downloadSpec.path: return try await ModelsCommand(context: context, arguments: parsed).download()
            case ModelsCommand.removeSpec.path: return try await ModelsCommand(context: context, arguments: parsed).remove()
            case ModelsCommand.addSpec.path: return try await ModelsCommand(context: context, arguments: parsed).add()
            case ModelsCommand.verifySpec.path: return try await ModelsCommand(context: context, arguments: parsed).verify()
            case HistoryCommand.spec.path: return try await HistoryCommand(context: context, arguments: parsed).run()
            case WordsCommand.spec.path: return try await WordsCommand(context: context, arguments: parsed).run()
            case BenchCommand.spec.path: return try await BenchCommand(context: context, arguments: parsed).run()
            case ["serve"]:
                #if canImport(IloTokiServer)
                    return try await ServeCommand(context: context, arguments: parsed).run()
                #else
                    throw CLIError("`ilotoki serve` is built on Linux only (it needs libmicrohttpd).")
                #endif
            default:
                console.error("'\(spec.name)' is not a command. Run `ilotoki --help` for the list.")
                return Status.usage
            }
        } catch let error as UsageError {
            console.error(error.message + " Run `ilotoki \(spec.name) --help` for usage.")
            return Status.usage
        } catch is CancellationError {
            return Interrupts.shared.exitStatus
        } catch {
            console.error(message(for: error))
            return Status.failure
        }
    }

    /// The one-sentence message for an error.
    static func message(for error: Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
}

/// A failure with the sentence to show.
struct CLIError: Error, LocalizedError {
    let message: String
    init(_ message: String) { self.message = message }
    var errorDescription: String? { message }
}

/// What every command gets.
struct CommandContext: Sendable {
    let console: Console
    let environment: [String: String]
    /// `--verbose`: llama.cpp's own log lines on standard error as well as in the log file.
    var verbose = false

    var directories: AppDirectories { .standard(environment: environment) }

    /// A Hugging Face mirror, like huggingface_hub's `HF_ENDPOINT`.
    var hubAccess: HubAccess { HubAccess.from(environment: environment) }

    /// Opens the store and prepares the app model the way the apps start (orphan sweep,
    /// settings, history), so the command line and the apps never disagree about what is
    /// installed. Notices (a damaged file set aside) go to standard error.
    /// - Parameter needsHome: whether the command cannot work without the home directory;
    ///   translating a file named with `--model` can (then nothing is kept, and a note says so).
    /// - Parameter watchesMemoryPressure: whether the command runs long enough to follow the
    ///   device's memory pressure (`ilotoki serve`, the interactive session, lines from standard
    ///   input or a file); one text translated and gone does not start the watch.
    /// - Throws: the store's error when the home cannot be used and the command needs it.
    @MainActor
    func prepareModel(
        keeping: [URL] = [], engine: LiveEngineOptions = LiveEngineOptions(), needsHome: Bool = true,
        watchesMemoryPressure: Bool = false
    ) throws -> TranslatorModel {
        var engine = engine
        engine.showsEngineLog = engine.showsEngineLog || verbose
        let model = try LiveApp.model(
            directories: directories, environment: environment, engine: engine, watchesMemoryPressure: watchesMemoryPressure)
        if needsHome { try model.store.requireHome() }
        model.prepare(keeping: keeping)
        reportNotices(of: model, after: 0)
        return model
    }

    /// Writes the model's notices from `after` on to standard error; returns how many there are now.
    @MainActor
    @discardableResult
    func reportNotices(of model: TranslatorModel, after: Int) -> Int {
        for notice in model.notices.dropFirst(after) { console.err("note: \(notice)\n") }
        return model.notices.count
    }
}

/// `--help` texts, made from the command table.
enum Help {
    /// What ilo toki is, in a line.
    static let tagline = "a private translator between Toki Pona and English, Russian and Vietnamese"

    static let description = """
        Everything runs on this device; nothing you type leaves it.

        ilotoki TEXT translates the text, its direction detected. Without text, ilotoki
        translates the lines of standard input, or on a terminal starts an interactive session.

        Text that starts with "-" goes after "--": ilotoki -- "-5 degrees outside"
        """

    static let environment = """
        Files live in $ILOTOKI_HOME (default $XDG_DATA_HOME/ilotoki or ~/.local/share/ilotoki);
        set HF_ENDPOINT to download through a Hugging Face mirror.
        """

    static func overview(commands: [CommandSpec]) -> String {
        var text = """
            ilotoki — \(tagline).
            Everything runs on this device; nothing you type leaves it.

            Usage: ilotoki [TEXT…]                 translate (the direction is detected)
                   ilotoki                         an interactive session (on a terminal)
                   ilotoki COMMAND [OPTIONS] [ARGS]

            Commands:

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Options: --help (for any command), --version, --verbose (llama.cpp's own log lines on
            standard error; they are always kept in llama.log beside the history).
            Run `ilotoki COMMAND --help` for a command's options.
            Text that starts with "-" goes after "--": ilotoki -- "-5 degrees outside"

            """
        return text + environment + "\n"
    }

    static func command(_ spec: CommandSpec) -> String {
        var text =
            "Usage: ilotoki \(spec.name)\(spec.options.isEmpty ? "" : " [OPTIONS]")\(spec.operands.isEmpty ? "" : " " + spec.operands)\n\n"
        text += spec.summary + "\n"
        let options = spec.options + commonOptions
        text += "\nOptions:\n"
        let labels = options.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += option.name
            if case .required(let placeholder) = option.value { label += " " + placeholder }
            return label
        }
        let width = (labels.map(\.count).max() ?? 0) + 2
        for (label, option) in zip(labels, options) {
            text += "  " + label.padding(toLength: width, withPad: " ", startingAt: 0) + option.help + "\n"
        }
        if !spec.details.isEmpty { text += "\n" + spec.details + "\n" }
        if !spec.operands.isEmpty {
            text += "\nAn operand that starts with \"-\" goes after \"--\": ilotoki \(spec.name) -- \"-5 degrees outside\"\n"
        }
        return text
    }
}
