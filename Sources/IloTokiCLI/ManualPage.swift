import Foundation

/// The manual page and the shell completions, made from the command table that `--help` prints,
/// so that none of them says anything twice: `ilotoki help --man`, `ilotoki help --completions
/// bash|zsh` (the package installs what they print).
enum ManualPage {
    /// The page in roff (man(7) macros), section 1.
    static func roff(commands: [CommandSpec], version: String) -> String {
        var page = """
            .TH ILOTOKI 1 "" "ilotoki \(version)" "User Commands"
            .SH NAME
            ilotoki \\- \(escape(Help.tagline))
            .SH SYNOPSIS
            .B ilotoki
            .RI [ TEXT ...]
            .br
            .B ilotoki
            .br
            .B ilotoki
            .I COMMAND
            .RI [ OPTIONS ]
            .RI [ ARGS ]
            .SH DESCRIPTION

            """
        page += paragraphs(Help.description)
        page += ".SH COMMANDS\n"
        for command in commands {
            page += ".SS \"ilotoki \(escape(command.name))\(command.operands.isEmpty ? "" : " " + escape(command.operands))\"\n"
            page += paragraphs(command.summary)
            for option in command.options {
                page += ".TP\n" + label(option) + "\n" + escape(option.help) + "\n"
            }
            if !command.details.isEmpty { page += ".PP\n" + paragraphs(command.details) }
        }
        page += ".SH OPTIONS\n"
        for option in commonOptions + [OptionSpec("--version", short: "V", help: "Show the version and the inference backend.")] {
            page += ".TP\n" + label(option) + "\n" + escape(option.help) + "\n"
        }
        page += ".SH ENVIRONMENT\n" + paragraphs(Help.environment)
        page += ".SH SEE ALSO\n.BR ilotoki-gtk (1)\n"
        return page
    }

    /// The GTK app's page: what it is, the same environment, and the command line's page.
    static func gtkRoff(version: String) -> String {
        """
        .TH ILOTOKI\\-GTK 1 "" "ilotoki \(version)" "User Commands"
        .SH NAME
        ilotoki\\-gtk \\- \(escape(Help.tagline)), in a window
        .SH SYNOPSIS
        .B ilotoki\\-gtk
        .SH DESCRIPTION
        The app for desktops and Linux phones (GTK 4): type or paste text, and its translation
        streams in as it is made; the direction is detected, or set and swapped by hand.
        The model is downloaded once, on request, and everything else runs on this device.
        .SH ENVIRONMENT
        \(paragraphs(Help.environment))\
        .SH SEE ALSO
        .BR ilotoki (1)

        """
    }

    /// An option's label in bold, its value's name in italics.
    private static func label(_ option: OptionSpec) -> String {
        var label = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
        label += "\\fB" + escape(option.name) + "\\fR"
        if case .required(let placeholder) = option.value { label += " \\fI" + escape(placeholder) + "\\fR" }
        return label
    }

    /// Text as roff paragraphs: a blank line starts a new one, lines are joined.
    private static func paragraphs(_ text: String) -> String {
        text.components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map { escape(String($0)) }.joined(separator: "\n") }
            .filter { !$0.isEmpty }
            .joined(separator: "\n.PP\n") + "\n"
    }

    /// Text that roff prints as it is: backslashes and hyphens escaped, every character beyond
    /// ASCII named (`\[u2026]`: groff reads the page as ASCII unless told otherwise), and a line
    /// that would begin with a control character kept as text.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\e"
            case "-": escaped += "\\-"
            case _ where scalar.value > 0x7F: escaped += String(format: "\\[u%04X]", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }
}

/// Completion scripts for bash and zsh: the command words, each command's options, and file
/// names after an option that takes a value.
enum Completions {
    static func bash(commands: [CommandSpec], defaultCommand: [String]) -> String {
        var script = """
            # bash completion for ilotoki (made by `ilotoki help --completions bash`)
            _ilotoki() {
                local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} path="" word i
                for ((i = 1; i < COMP_CWORD; i++)); do
                    word=${COMP_WORDS[i]}
                    [[ $word == -* ]] && continue
                    case "${path:+$path }$word" in
                    \(paths(commands).map { $0.replacingOccurrences(of: " ", with: "\\ ") }.joined(separator: "|"))) path="${path:+$path }$word" ;;
                    *) break ;;
                    esac
                done
                case "$prev" in
                \(valueOptions(commands).joined(separator: "|"))) return ;;
                esac
                local words
                case "$path" in

            """
        for (path, words) in choices(commands, defaultCommand: defaultCommand) {
            script += "    \"\(path)\") words=\"\(words.joined(separator: " "))\" ;;\n"
        }
        script += """
                esac
                mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
            }
            complete -o default -F _ilotoki ilotoki

            """
        return script
    }

    static func zsh(commands: [CommandSpec], defaultCommand: [String]) -> String {
        var script = """
            #compdef ilotoki
            # zsh completion for ilotoki (made by `ilotoki help --completions zsh`)
            local path_ word i
            local -a choices
            for ((i = 2; i < CURRENT; i++)); do
                word=${words[i]}
                [[ $word == -* ]] && continue
                case "${path_:+$path_ }$word" in
                \(paths(commands).map { "'\($0)'" }.joined(separator: "|"))) path_="${path_:+$path_ }$word" ;;
                *) break ;;
                esac
            done
            case "${words[CURRENT - 1]}" in
            \(valueOptions(commands).joined(separator: "|"))) _files; return ;;
            esac
            case "$path_" in

            """
        for (path, words) in choices(commands, defaultCommand: defaultCommand) {
            script += "'\(path)') choices=(\(words.joined(separator: " "))) ;;\n"
        }
        script += """
            esac
            compadd -a choices

            """
        return script
    }

    /// Every command's words and every beginning of them ("models", "models download").
    private static func paths(_ commands: [CommandSpec]) -> [String] {
        var paths: [String] = []
        for command in commands {
            for length in 1...command.path.count {
                let path = command.path.prefix(length).joined(separator: " ")
                if !paths.contains(path) { paths.append(path) }
            }
        }
        return paths
    }

    /// What may follow each path: the words of the commands below it and, for a command, its options.
    /// At the top, also the default command's options (`ilotoki --from en TEXT`).
    private static func choices(_ commands: [CommandSpec], defaultCommand: [String]) -> [(path: String, words: [String])] {
        ([""] + paths(commands)).map { path in
            let depth = path.isEmpty ? 0 : path.split(separator: " ").count
            var words: [String] = []
            for command in commands where command.path.count > depth && command.path.prefix(depth).joined(separator: " ") == path {
                if !words.contains(command.path[depth]) { words.append(command.path[depth]) }
            }
            if let command = commands.first(where: { $0.name == path }) {
                words += (command.options + commonOptions).map(\.name)
            } else if path.isEmpty {
                let options = commands.first { $0.path == defaultCommand }?.options ?? []
                words += ["--help", "--version"] + options.map(\.name)
            }
            return (path, words)
        }
    }

    /// The options that take a value, whichever command they belong to.
    private static func valueOptions(_ commands: [CommandSpec]) -> [String] {
        var names: [String] = []
        for option in commands.flatMap(\.options) {
            if case .required = option.value, !names.contains(option.name) { names.append(option.name) }
        }
        return names
    }
}
