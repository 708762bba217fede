import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The command line as scripts and people meet it: output that lines up with input, an
/// interrupted translation never passed off as finished, write errors, odd arguments, and
/// the direction it picks.
@Suite(.exclusiveModelUse) struct CommandLineBehaviourTests {
    let home = TemporaryDirectory("cli-behaviour")
    let ilotoki = ToolProcess.executable("ilotoki")
    var environment: [String: String] { ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"] }

    func run(_ arguments: [String], input: Data = Data()) async throws -> ToolProcess.Result {
        try await ToolProcess.run(ilotoki, arguments, environment: environment, input: input)
    }

    /// Runs a shell command line with `$ILOTOKI` and `$TINY` set (for pipes, redirections and
    /// arguments Swift strings cannot hold).
    func shell(_ script: String) async throws -> ToolProcess.Result {
        var environment = environment
        environment["ILOTOKI"] = ilotoki.path
        environment["TINY"] = try TestModels.require(TestModels.tiny)
        return try await ToolProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], environment: environment)
    }

    // MARK: - Standard input lines up with standard output

    @Test func everyLineIsAnsweredByOneLineInOrder() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        var input = Data("mi moku\n\n   \n".utf8)
        input.append(contentsOf: [0x66, 0xFF, 0x0A])  // line 4: not UTF-8
        input.append(Data("こんにちは\nsina lape\n".utf8))  // line 5: a script none of the four use

        let plain = try await run(["--model", tiny, "--threads", "1"], input: input)
        #expect(plain.status == 1)
        let lines = plain.stdout.components(separatedBy: "\n")
        try #require(lines.count == 7 && lines.last == "", "six lines and the final newline: \(lines)")
        #expect(!lines[0].isEmpty && lines[1].isEmpty && lines[2].isEmpty && lines[3].isEmpty && lines[4].isEmpty && !lines[5].isEmpty)
        #expect(plain.stderr.contains("line 4"))
        #expect(plain.stderr.contains("line 5"))
        #expect(plain.stderr.contains("Japanese"))

        let json = try await run(["--model", tiny, "--threads", "1", "--json"], input: input)
        #expect(json.status == 1)
        let objects = try json.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
        try #require(objects.count == 6)
        #expect(objects.map { $0["source"] as? String } == ["mi moku", "", "   ", nil, "こんにちは", "sina lape"])
        #expect(objects[1]["result"] as? String == "")
        #expect(objects[3]["error"] is String && objects[4]["error"] is String)
        #expect(objects[0]["result"] is String && objects[5]["result"] is String)
    }

    // MARK: - Interrupted is never mistaken for finished

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129))])
    func aSignalMidLineLeavesThatLineUnfinishedAndKeepsTheRest(signal: Int32, status: Int32) async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let long = (1...30).map { "Line \($0) of a long letter about the cat that sleeps on the warm mat." }.joined(separator: " ")
        let tool = try ToolProcess(ilotoki, ["--model", gemma, "--from", "en", "--json"], environment: environment)
        tool.write(Data("I love you\n\(long)\n".utf8))
        // Once the first line's object is out, the second, long line is being translated.
        try await tool.waitForStdout { $0.contains("\n") }
        tool.signal(signal)
        let result = await tool.wait()
        #expect(result.status == status)
        #expect(result.stdout.split(separator: "\n").count == 1, "no object for the interrupted line: \(result.stdout)")
        #expect(result.stderr.contains("line 2"))
        // The finished line was kept in the history; the interrupted one was not.
        let entries = HistoryStore(url: AppDirectories(home: home.url).historyFile).load().history.entries
        #expect(entries.map(\.source) == ["I love you"])
    }

    @Test func anInterruptedPlainTranslationGetsNoFinalNewline() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let lines = (1...30).map { "Line \($0) of a long letter about the cat that sleeps on the warm mat." }
        let tool = try ToolProcess(ilotoki, ["--model", gemma, "--from", "en", lines.joined(separator: "\n")], environment: environment)
        try await tool.waitForStdout { !$0.isEmpty }
        tool.signal(SIGINT)
        let result = await tool.wait()
        #expect(result.status == 130)
        try await ExpectedTranslation.expectBeginning(result.stdout, ofLines: lines, .englishToTokiPona, model: gemma)
        #expect(!result.stdout.hasSuffix("\n"), "an interrupted translation does not end like a finished one")
        #expect(result.stderr.contains("interrupted"))
    }

    // MARK: - Writing

    @Test func aFullDiskIsAnErrorAndAClosedPipeIsQuiet() async throws {
        let full = try await shell(#""$ILOTOKI" --model "$TINY" --threads 1 --from en hello > /dev/full; echo "status $?""#)
        #expect(full.stdout.contains("status 1"))
        #expect(full.stderr.contains("cannot write to standard output"))
        #expect(full.stderr.split(separator: "\n").count == 1)

        let piped = try await shell(
            #"printf 'a b\nc d\ne f\ng h\n' | "$ILOTOKI" --model "$TINY" --threads 1 --from en | head -c 1 >/dev/null; echo "status ${PIPESTATUS[1]}""#
        )
        #expect(piped.stdout.contains("status 0"))
        #expect(piped.stderr.isEmpty, "\(piped.stderr)")
    }

    // MARK: - Arguments

    @Test func argumentsThatAreNotTextAreRefused() async throws {
        let result = try await shell(#""$ILOTOKI" --model "$TINY" "$(printf 'caf\xe9')"; echo "status $?""#)
        #expect(result.stdout.contains("status 1"))
        #expect(result.stderr.contains("not valid UTF-8"))
    }

    @Test func textThatStartsWithADashGoesAfterTwoDashes() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let refused = try await run(["--model", tiny, "-5 degrees outside"])
        #expect(refused.status == 2)
        let result = try await run(["--model", tiny, "--threads", "1", "--", "-5 degrees outside"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try await ExpectedTranslation.of("-5 degrees outside", .englishToTokiPona, model: tiny, threads: 1)
        #expect(result.stdout == expected + "\n")
        for command in [["translate"], ["models", "add"], ["models", "download"]] {
            let help = try await run(command + ["--help"])
            #expect(help.stdout.contains("goes after \"--\""), "\(command)")
        }
        #expect(try await run(["--help"]).stdout.contains(#"ilotoki -- "-5 degrees outside""#))
        #expect(try await run(["translate", "--help"]).stdout.contains("--from vi"))
    }

    @Test func jsonOnATerminalWithoutTextSaysItNeedsText() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let tool = try ToolProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", "\(ilotoki.path) --model \(tiny) --json", "/dev/null"],
            environment: environment)
        let result = await tool.wait()
        #expect(result.status == 2)
        #expect(result.stdout.contains("--json needs the text"))
    }

    // MARK: - The direction

    @Test func theDirectionFollowsTheTextAndTheLastOneUsed() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        func direction(_ text: String) async throws -> String? {
            let result = try await run(["--model", tiny, "--threads", "1", "--json", text])
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            return (object?["from"] as? String).map { "\($0)→\(object?["to"] as? String ?? "")" }
        }
        #expect(try await direction("I love toki pona") == "en→tok")
        #expect(try await direction("What does mi moku mean?") == "en→tok")
        #expect(try await direction("mama") == "en→tok")  // a word of both follows the last direction
        #expect(try await direction("jan li moku e kili") == "tok→en")
        #expect(try await direction("mama") == "tok→en")
        _ = try await run(["--model", tiny, "--threads", "1", "--from", "tok", "--to", "ru", "pona"])
        #expect(try await direction("open") == "tok→ru")
        #expect(try await direction("mi moku") == "tok→ru")
        let foreign = try await run(["--model", tiny, "こんにちは"])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("Japanese") && foreign.stderr.contains("cannot translate"))
    }
}
