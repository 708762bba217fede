import Foundation
import IloTokiCore
import IloTokiLLM

/// The `ilotoki` command line.
public enum CLI {
    public static let version = "0.1.0"

    /// Exit statuses.
    enum Status {
        static let ok: Int32 = 0
        static let failure: Int32 = 1
        static let usage: Int32 = 2
        static let interrupted: Int32 = 130
    }

    static let commands: [CommandSpec] = [
        TranslateCommand.spec,
    ]

    /// Runs the command line and returns the exit status.
    /// - Parameters:
    ///   - arguments: the arguments without the program name.
    ///   - environment: the process environment.
    public static func run(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        let console = Console(environment: environment)
        if arguments == ["--version"] || arguments == ["-V"] {
            console.out("ilotoki \(version) (llama.cpp \(Engine.backendVersion))\n")
            return Status.ok
        }
        if arguments.isEmpty && console.stdinIsTerminal || arguments == ["--help"] || arguments == ["-h"] || arguments == ["help"] {
            console.out(Help.overview(commands: commands))
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

        let context = CommandContext(console: console, environment: environment)
        do {
            switch spec.path {
            case TranslateCommand.spec.path: return try await TranslateCommand(context: context, arguments: parsed).run()
            default:
                console.error("'\(spec.name)' is not available yet.")
                return Status.failure
            }
        } catch let error as UsageError {
            console.error(error.message + " Run `ilotoki \(spec.name) --help` for usage.")
            return Status.usage
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

/// What every command gets.
struct CommandContext: Sendable {
    let console: Console
    let environment: [String: String]
}

/// `--help` texts, made from the command table.
enum Help {
    static func overview(commands: [CommandSpec]) -> String {
        var text = """
            ilotoki — a private translator between Toki Pona and English, Russian and Vietnamese.
            Everything runs on this device; nothing you type leaves it.

            Usage: ilotoki [TEXT…]                 translate (direction detected)
                   ilotoki COMMAND [OPTIONS] [ARGS]

            Commands:

            """
        let width = (commands.map(\.name.count).max() ?? 0) + 2
        for command in commands {
            text += "  " + command.name.padding(toLength: width, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += """

            Options: --help (for any command), --version.
            Run `ilotoki COMMAND --help` for a command's options.

            """
        return text
    }

    static func command(_ spec: CommandSpec) -> String {
        var text = "Usage: ilotoki \(spec.name)\(spec.options.isEmpty ? "" : " [OPTIONS]")\(spec.operands.isEmpty ? "" : " " + spec.operands)\n\n"
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
        return text
    }
}
