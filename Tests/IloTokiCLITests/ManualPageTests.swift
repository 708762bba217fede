import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCLI

/// The manual page and the shell completions the package installs, made from the command table
/// `--help` prints: every command and option is in them, groff reads the page without a
/// warning, and bash completes command words, options and file names as a person expects.
@Suite struct ManualPageTests {
    static let shell = URL(fileURLWithPath: "/bin/bash")

    @Test func thePageHasEveryCommandAndOptionAndGroffReadsItCleanly() async throws {
        let page = ManualPage.roff(commands: CLI.commands, version: CLI.version)
        #expect(page.hasPrefix(".TH ILOTOKI 1 "))
        for command in CLI.commands {
            #expect(page.contains(".SS \"ilotoki \(ManualPage.escape(command.name))"), "\(command.name) has its section")
            for option in command.options { #expect(page.contains(ManualPage.escape(option.name)), "\(command.name) \(option.name)") }
        }
        let beyondASCII = page.unicodeScalars.filter { !$0.isASCII }
        #expect(beyondASCII.isEmpty, "characters beyond ASCII are named, as groff reads ASCII")
        // Text never begins a line as a request would.
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            #expect(
                ["TH", "SH", "SS", "TP", "PP", "B", "I", "BR", "RI", "br"].contains(
                    line.dropFirst().split(separator: " ").first.map(String.init) ?? ""),
                "a line read as a request: \(line)")
        }
        let directory = TemporaryDirectory("manual")
        let gtkPage = ManualPage.gtkRoff(version: CLI.version)
        #expect(gtkPage.contains(".BR ilotoki (1)"))
        for (name, text) in [("ilotoki.1", page), ("ilotoki-gtk.1", gtkPage)] {
            let file = directory.file(name)
            try Data(text.utf8).write(to: file)
            let groff = try await ToolProcess.run(
                URL(fileURLWithPath: "/usr/bin/groff"), ["-man", "-Tutf8", "-ww", "-z", file.path], environment: ["LC_ALL": "C"])
            #expect(groff.status == 0 && groff.stderr.isEmpty, "groff on \(name): \(groff.stderr)")
        }
    }

    /// What bash offers after `words` (the last one being completed).
    func bashCompletes(_ words: [String]) async throws -> [String] {
        let script = Completions.bash(commands: CLI.commands, defaultCommand: TranslateCommand.spec.path)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let probe = script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _ilotoki; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let result = try await ToolProcess.run(Self.shell, ["-c", probe], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "bash: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndLeavesValuesToFileNames() async throws {
        let top = try await bashCompletes(["ilotoki", ""])
        #expect(Set(["translate", "models", "history", "words", "bench", "--help", "--version", "--from", "--to"]).isSubset(of: Set(top)))
        let cases: [([String], [String])] = [
            (["ilotoki", "models", "d"], ["download"]),
            (["ilotoki", "models", "download", "--acc"], ["--accept-licence"]),
            (["ilotoki", "translate", "--fr"], ["--from"]),
            // Options after text, as the parser takes them.
            (["ilotoki", "--quiet", "hi", "--wh"], ["--whole-lines"]),
            // After an option that takes a value, nothing is offered: bash falls back to file names.
            (["ilotoki", "translate", "--file", ""], []),
        ]
        for (words, expected) in cases {
            let offered = try await bashCompletes(words)
            #expect(offered == expected, "\(words.joined(separator: " "))")
        }
    }

    @Test func zshReadsItsCompletionWithoutAnError() async throws {
        let zsh = URL(fileURLWithPath: "/usr/bin/zsh")
        try #require(FileManager.default.isExecutableFile(atPath: zsh.path), "zsh is installed by scripts/setup.sh for this test")
        let script = Completions.zsh(commands: CLI.commands, defaultCommand: TranslateCommand.spec.path)
        #expect(script.hasPrefix("#compdef ilotoki\n"))
        let result = try await ToolProcess.run(zsh, ["-n", "-c", script], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 0, "zsh: \(result.stderr)")
    }
}
