/// The command line's grammar, as data: commands, their options and operands.
///
/// Swift's argument-parser package cannot be fetched in this project's builds, so parsing is
/// ours; it stays small by being a table.
struct CommandSpec: Sendable {
    /// The words that select the command, e.g. `["models", "download"]`.
    let path: [String]
    /// One line for the list of commands.
    let summary: String
    /// What goes after the command, e.g. `ID`, `[TEXT…]`.
    let operands: String
    /// Operands it accepts.
    let operandCount: ClosedRange<Int>
    let options: [OptionSpec]
    /// More help, shown by `--help` after the options.
    let details: String

    var name: String { path.joined(separator: " ") }
}

struct OptionSpec: Sendable {
    enum Value: Sendable {
        case flag
        /// The option takes a value, named in help as given.
        case required(String)
    }

    let name: String
    let short: Character?
    let value: Value
    let help: String

    init(_ name: String, short: Character? = nil, _ value: Value = .flag, help: String) {
        self.name = name
        self.short = short
        self.value = value
        self.help = help
    }
}

/// A parsed command line.
struct ParsedArguments: Equatable, Sendable {
    var command: [String]
    var options: [String: String] = [:]
    var flags: Set<String> = []
    var operands: [String] = []

    func value(_ name: String) -> String? { options[name] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// A mistake on the command line: the message says what to type instead. Exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    /// The command whose help to point at.
    let command: String?
    var description: String { message }
}

/// Options every command accepts.
let commonOptions = [
    OptionSpec("--help", short: "h", help: "Show help for this command."),
    OptionSpec(
        "--verbose", help: "Also show llama.cpp's own log lines on standard error (they are always kept in llama.log beside the history)."),
]

/// Parses `arguments` (without the program name) against `commands`.
///
/// The first words choose the command (the longest match); without one, the words are text to
/// translate with `defaultCommand`. Options may come anywhere before `--`, as `--name value`,
/// `--name=value` or `-n value`.
func parseArguments(_ arguments: [String], commands: [CommandSpec], defaultCommand: [String]) throws -> (CommandSpec, ParsedArguments) {
    let byLength = commands.sorted { $0.path.count > $1.path.count }
    guard
        let spec = byLength.first(where: { Array(arguments.prefix($0.path.count)) == $0.path })
            ?? commands.first(where: { $0.path == defaultCommand })
    else { throw UsageError(message: "no command given.", command: nil) }
    let explicit = Array(arguments.prefix(spec.path.count)) == spec.path
    var remaining = explicit ? Array(arguments.dropFirst(spec.path.count)) : arguments
    var parsed = ParsedArguments(command: spec.path)
    let options = spec.options + commonOptions

    // A bare word that is not a command, where a command was expected, is a usage error
    // unless the default command takes text.
    if !explicit, let first = arguments.first, !first.hasPrefix("-"),
        commands.contains(where: { $0.path.count > 1 && $0.path.first == first })
    {
        let subcommands = commands.filter { $0.path.first == first && $0.path.count > 1 }.map { $0.path[1] }
        let given = arguments.count > 1 ? "'\(arguments[1])'" : "nothing"
        throw UsageError(
            message: "\(first): expected one of \(subcommands.joined(separator: ", ")), got \(given).", command: first)
    }

    // `models frobnicate`: a word after a command that has subcommands and takes no operands.
    let subcommands = commands.filter { $0.path.count == spec.path.count + 1 && Array($0.path.prefix(spec.path.count)) == spec.path }
    if explicit, !subcommands.isEmpty, spec.operandCount.upperBound == 0, let word = remaining.first, !word.hasPrefix("-") {
        let names = subcommands.map { $0.path.last ?? "" }.joined(separator: ", ")
        throw UsageError(message: "unknown command '\(spec.name) \(word)'; expected one of: \(names).", command: spec.name)
    }

    var onlyOperands = false
    while !remaining.isEmpty {
        let word = remaining.removeFirst()
        if onlyOperands || word == "-" || !word.hasPrefix("-") {
            parsed.operands.append(word)
            continue
        }
        if word == "--" {
            onlyOperands = true
            continue
        }
        var name = word
        var attached: String?
        if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
            name = String(word[..<equals])
            attached = String(word[word.index(after: equals)...])
        }
        let option: OptionSpec? =
            if name.hasPrefix("--") {
                options.first { $0.name == name }
            } else if name.count == 2, let letter = name.last {
                options.first { $0.short == letter }
            } else {
                nil
            }
        guard let option else {
            throw UsageError(message: "unknown option '\(name)' for '\(spec.name)'.", command: spec.name)
        }
        switch option.value {
        case .flag:
            if attached != nil {
                throw UsageError(message: "\(option.name) takes no value.", command: spec.name)
            }
            parsed.flags.insert(option.name)
        case .required(let placeholder):
            if let attached {
                parsed.options[option.name] = attached
            } else if let next = remaining.first {
                remaining.removeFirst()
                parsed.options[option.name] = next
            } else {
                throw UsageError(message: "\(option.name) needs a value (\(placeholder)).", command: spec.name)
            }
        }
    }
    if parsed.has("--help") { return (spec, parsed) }
    guard spec.operandCount.contains(parsed.operands.count) else {
        let expected =
            spec.operandCount.lowerBound == spec.operandCount.upperBound
            ? "\(spec.operandCount.lowerBound)" : "\(spec.operandCount.lowerBound) to \(spec.operandCount.upperBound)"
        let usage = spec.operands.isEmpty ? "no operands" : "\(spec.operands) (\(expected))"
        throw UsageError(message: "'\(spec.name)' takes \(usage), got \(parsed.operands.count).", command: spec.name)
    }
    return (spec, parsed)
}
