import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `ilotoki` run as a real process, each test with a home directory of its own.
@Suite(.exclusiveModelUse) struct CommandLineTests {
    let home = TemporaryDirectory("cli")
    let ilotoki = ToolProcess.executable("ilotoki")

    var environment: [String: String] { ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"] }

    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) async throws -> ToolProcess.Result {
        try await ToolProcess.run(ilotoki, arguments, environment: environment.merging(extra) { $1 }, input: Data(input.utf8))
    }

    // MARK: - Help and usage

    @Test func helpForEveryCommand() async throws {
        let overview = try await run(["--help"])
        #expect(overview.status == 0)
        #expect(overview.stdout.contains("Usage: ilotoki"))
        for command in [
            ["translate"], ["models"], ["models", "download"], ["models", "remove"], ["models", "add"], ["models", "verify"], ["history"],
            ["words"],
        ] {
            let result = try await run(command + ["--help"])
            #expect(result.status == 0, "\(command)")
            #expect(result.stdout.hasPrefix("Usage: ilotoki \(command.joined(separator: " "))"), "\(command)")
            let viaHelp = try await run(["help"] + command)
            #expect(viaHelp.stdout == result.stdout)
        }
        let version = try await run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("ilotoki "))
    }

    @Test func usageErrorsExitWithTwo() async throws {
        let unknownOption = try await run(["translate", "--bogus", "text"])
        #expect(unknownOption.status == 2)
        #expect(unknownOption.stderr.contains("--bogus"))
        #expect(unknownOption.stdout.isEmpty)
        let unknownSubcommand = try await run(["models", "frobnicate"])
        #expect(unknownSubcommand.status == 2)
        #expect(unknownSubcommand.stderr.contains("download"))
        #expect(try await run(["translate", "--from", "de", "x"]).status == 2)
        #expect(try await run(["translate", "--from", "en", "--to", "ru", "x"]).status == 2)
        #expect(try await run(["models", "add", "x.gguf"]).status == 2)  // no --format
    }

    @Test func withNoModelItSaysWhichCommandDownloadsOne() async throws {
        let result = try await run(["jan li moku e kili"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("ilotoki models download milmmt-46-1b-v1-3-q8-0"))
        #expect(result.stderr.contains("(≈\u{00A0}1.39 GB)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func wordsAreLookedUpInLipuLinkuAndAnUnknownOneIsAnError() async throws {
        let known = try await run(["words", "moku", "Pona,"])
        #expect(known.status == 0, "\(known.stderr)")
        #expect(known.stdout.hasPrefix("moku  (core word)\n  eat, drink"))
        #expect(known.stdout.contains("pona  (core word)\n"))
        #expect(known.stderr.isEmpty)

        let mixed = try await run(["words", "kili", "hello"])
        #expect(mixed.status == 1)
        #expect(mixed.stdout.hasPrefix("kili  (core word)"))
        #expect(mixed.stderr == "error: 'hello' is not a Toki Pona word in lipu Linku's dictionary (178 words).\n")

        let nowhere = try await run(["words", "moku"], environment: ["ILOTOKI_WORDS": home.file("none.json").path])
        #expect(nowhere.status == 1 && nowhere.stdout.isEmpty)
        #expect(nowhere.stderr.contains("none.json"))
        #expect(try await run(["words"]).status == 2)  // a word is needed
    }

    @Test func theWordsAreFoundWhenTheProgramIsRunByItsNameFromPath() async throws {
        // As a person runs an installed program: by name, found through PATH (here a link to
        // the built one), so the program's own path is not in its arguments.
        let bin = home.file("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("ilotoki"), withDestinationURL: ilotoki)
        let result = try await ToolProcess.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "cd / && ilotoki words pona"],
            environment: environment.merging(["PATH": bin.path + ":/usr/bin:/bin"]) { $1 })
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("pona  (core word)"))
    }

    // MARK: - Only our words on the terminal

    @Test func llamaCppsOwnLinesGoToTheLogAndOnlyOurMessageToTheTerminal() async throws {
        // A file that begins like a GGUF with version 0: gguf refuses it with a log line.
        let damaged = home.file("version-0.gguf")
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try Data("GGUF".utf8 + [UInt8](repeating: 0, count: 60)).write(to: damaged)

        let quiet = try await run(["--model", damaged.path, "--from", "en", "I love you"])
        #expect(quiet.status == 1)
        #expect(quiet.stdout.isEmpty)
        let lines = quiet.stderr.split(separator: "\n")
        #expect(lines.count == 1, "only our message: \(quiet.stderr)")
        #expect(quiet.stderr.hasPrefix("error: The model file"))
        #expect(quiet.stderr.contains("bad GGUF version: 0"), "llama.cpp's reason, quoted in ours")
        #expect(!quiet.stderr.contains("gguf_init_from"))
        let log = try String(contentsOf: AppDirectories(home: home.url).engineLogFile, encoding: .utf8)
        #expect(log.contains("gguf_init_from_reader: bad GGUF version: 0"), "kept in llama.log: \(log)")

        let verbose = try await run(["--verbose", "--model", damaged.path, "--from", "en", "I love you"])
        #expect(verbose.status == 1)
        #expect(verbose.stderr.contains("gguf_init_from_reader: bad GGUF version: 0"))
        #expect(verbose.stderr.contains("error: The model file"))
    }

    // MARK: - Translating with the tiny model (plumbing)

    @Test func translatesArgumentsWithAModelFile() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let result = try await run(["translate", "--model", tiny, "--from", "en", "--to", "tok", "I", "love", "you"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n"))
        #expect(String(validating: Array(result.stdoutData), as: UTF8.self) != nil)
    }

    @Test func everyLineOfStandardInputIsOneTranslationInOrder() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let result = try await run(["--model", tiny, "--json", "--from", "tok"], input: "mi moku\nsina lape\n\njan li kama\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)  // the empty line is answered too, so output lines up with input
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:] }
        #expect(objects.map { $0["source"] as? String } == ["mi moku", "sina lape", "", "jan li kama"])
        #expect(lines[2] == #"{"from":"tok","to":"en","source":"","result":""}"#)
        for object in objects where object["source"] as? String != "" {
            #expect(object["from"] as? String == "tok")
            #expect(object["to"] as? String == "en")
            #expect(object["result"] is String)
            #expect(object["model"] as? String == tiny)
            let tokens = object["tokens"] as? [String: Any]
            #expect((tokens?["prompt"] as? Int ?? 0) > 0)
            #expect(tokens?["generated"] is Int)
            let timings = object["timings"] as? [String: Any]
            #expect(timings?["prefill_ms"] is Double && timings?["decode_ms"] is Double)
        }
        // Key order as documented.
        #expect(lines[0].hasPrefix("{\"from\":\"tok\",\"to\":\"en\",\"source\":"))
    }

    @Test func invalidUTF8OnStandardInputIsReportedWithItsLineNumber() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        var input = Data("mi moku\n".utf8)
        input.append(contentsOf: [0x66, 0xFF, 0xFE, 0x0A])  // "f\xFF\xFE\n"
        input.append(Data("sina lape\n".utf8))
        let tool = try ToolProcess(ilotoki, ["--model", tiny, "--json", "--from", "tok"], environment: environment)
        tool.write(input)
        tool.closeInput()
        let result = await tool.wait()
        #expect(result.status == 1)
        #expect(result.stderr.contains("line 2"))
        #expect(result.stderr.contains("UTF-8"))
        let objects = result.stdout.split(separator: "\n")
        try #require(objects.count == 3)  // the other lines were translated, and line 2 answered with its error
        #expect(objects[1].hasPrefix(#"{"from":"tok","to":"en","source":null,"error":"#))
    }

    @Test func aModelThatIsNotThereIsNamed() async throws {
        let result = try await run(["--model", "/nonexistent/model.gguf", "x"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/nonexistent/model.gguf"))
        let damaged = home.file("damaged.gguf")
        try Data("not a model at all".utf8).write(to: damaged)
        let bad = try await run(["--model", damaged.path, "x"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains(damaged.path))
    }

    @Test func aTranslationOpensNoInternetSocket() async throws {
        // Privacy, proven: trace every socket the process and its threads open.
        let tiny = try TestModels.require(TestModels.tiny)
        let trace = home.file("strace.log")
        // The model file being opened shows the trace saw the translation happen.
        let result = try await ToolProcess.run(
            URL(fileURLWithPath: "/usr/bin/strace"),
            ["-f", "-e", "trace=socket,connect,openat", "-o", trace.path, ilotoki.path, "--model", tiny, "mi moku"],
            environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let log = try String(contentsOf: trace, encoding: .utf8)
        #expect(log.contains("openat(") && log.contains(tiny), "the trace did not see the model opened")
        #expect(!log.contains("AF_INET"), "\(log)")
    }

    // MARK: - The Gemma file, sideloaded like a user would

    @Test func sideloadedGemmaTranslatesDetectsAndRecordsHistory() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let added = try await run(["models", "add", gemma, "--format", "sourceTarget", "--name", "Gemma test"])
        #expect(added.status == 0, "\(added.stderr)")
        let list = try await run(["models"])
        #expect(list.stdout.contains("Gemma test"))
        #expect(list.stdout.contains("*  local-"))

        // English is detected and goes into Toki Pona; Gemma echoes the line.
        let english = try await run(["I love you"])
        #expect(english.status == 0, "\(english.stderr)")
        #expect(english.stdout == "I love you\n")
        let russian = try await run(["--json", "Я тебя люблю"])
        #expect(russian.stdout.contains("\"from\":\"ru\",\"to\":\"tok\""))
        #expect(russian.stdout.contains("\"result\":\"Я тебя люблю\""))

        let history = try await run(["history"])
        #expect(history.stdout.contains("en→tok"))
        #expect(history.stdout.contains("Я тебя люблю"))
        let cleared = try await run(["history", "--clear"])
        #expect(cleared.status == 0)
        #expect(try await run(["history"]).stdout.contains("No translations yet"))
    }

    @Test func historyOffRecordsNothing() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        var settings = AppSettings()
        settings.keepHistory = false
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try SettingsStore(url: AppDirectories(home: home.url).settingsFile).save(settings)
        let result = try await run(["--model", gemma, "--from", "en", "I love you"])
        #expect(result.status == 0)
        let history = try await run(["history"])
        #expect(history.stdout.contains("No translations yet"))
        #expect(history.stdout.contains("switched off"))
    }

    @Test func ctrlCStopsATranslationWithStatus130() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let lines = (1...40).map { "Line number \($0) of a long letter." }
        let tool = try ToolProcess(ilotoki, ["--model", gemma, "--from", "en", lines.joined(separator: "\n")], environment: environment)
        try await tool.waitForStdout { !$0.isEmpty }
        tool.signal(SIGINT)
        let result = await tool.wait()
        #expect(result.status == 130)
        try await ExpectedTranslation.expectBeginning(result.stdout, ofLines: lines, .englishToTokiPona, model: gemma)
    }

    @Test func anInteractiveSessionOnATerminal() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        // script(1) gives the session a terminal.
        let tool = try ToolProcess(
            URL(fileURLWithPath: "/usr/bin/script"), ["-qfec", "\(ilotoki.path) --model \(gemma)", "/dev/null"], environment: environment)
        // Each prompt starts a line of the terminal ("\r\n", one Character in Swift); libedit
        // redraws a line being edited in place (after a bare "\r"), so prompts are counted by line.
        // A step waits as long as a loaded machine may take to translate (waitForStdout throws,
        // naming what it saw, only when the deadline passes; a passing step returns at once).
        func prompts(_ output: String) -> Int {
            let prompts = TranslationDirection.all.map { "\($0) › " }
            return output.components(separatedBy: "\r\n").filter { line in prompts.contains { line.contains($0) } }.count
        }
        func waitForPrompt(_ count: Int) async throws {
            try await tool.waitForStdout(timeout: .seconds(180)) { prompts($0) >= count }
        }
        func waitFor(_ text: String) async throws {
            try await tool.waitForStdout(timeout: .seconds(180)) { $0.contains(text) }
        }
        try await waitForPrompt(1)
        // Typed with a slip mended by the arrow keys; libedit edits the line, so the escape
        // sequences never reach the text.
        tool.write(Data("I love yuo\u{1B}[D\u{08}\u{1B}[Cu\r".utf8))  // "yuo", ←, backspace, →, "u": "you"
        try await waitFor("I love you\r\n")
        try await waitForPrompt(2)
        tool.write(Data(":history\r".utf8))
        try await waitFor("en→tok  I love you → ")
        try await waitForPrompt(3)
        // Ctrl-C on a half-typed line drops it and gives a fresh prompt.
        tool.write(Data("half a line\u{03}".utf8))
        try await waitForPrompt(4)
        // :to fixes the direction: English typed next is not detected as English again.
        tool.write(Data(":to ru\r".utf8))
        try await waitForPrompt(5)
        tool.write(Data("good morning\r".utf8))
        try await waitForPrompt(6)
        let afterSentence = tool.stdoutSoFar.components(separatedBy: "good morning").last ?? ""
        // A moment at the prompt, as a person takes: libedit sets the terminal's mode after it
        // has drawn the prompt, and a Ctrl-D that comes before that is not read as the end (one
        // run in 50 with the cores busy waited here until the test's limit killed the session).
        try await Task.sleep(for: .milliseconds(300))
        tool.write(Data([0x04]))  // Ctrl-D
        let result = await tool.wait()
        #expect(result.status == 0)
        #expect(result.stdout.contains("en→tok  I love you → I love you"))
        #expect(afterSentence.contains("tok→ru › "), "the direction set with :to stayed: \(afterSentence)")
        #expect(!afterSentence.contains("(en→tok)"))
        let entries = HistoryStore(url: AppDirectories(home: home.url).historyFile).load().history.entries
        #expect(entries.contains { $0.source == "I love you" })
        #expect(!entries.contains { $0.source.contains("\u{1B}") || $0.source.contains("[D") })
        #expect(!entries.contains { $0.source.contains("half a line") })
    }
}

/// `ilotoki models download` against a server on 127.0.0.1 standing in for Hugging Face
/// (through HF_ENDPOINT), with a small model in a catalog file (ILOTOKI_CATALOG): everything a
/// real download goes through, without gigabytes.
@Suite(.serialized) struct ModelsDownloadCommandTests {
    let home = TemporaryDirectory("cli-download")
    let ilotoki = ToolProcess.executable("ilotoki")
    /// A model file as a server sends it: the tiny test model (a real GGUF, which the download
    /// opens before installing it) padded to 6 MiB, so that a transfer can be cut halfway.
    static let payload: Data = {
        var data = (try? Data(contentsOf: URL(fileURLWithPath: TestModels.tiny))) ?? Data()
        data.append(Data((data.count..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }))
        return data
    }()
    static let entry = CatalogEntry(
        id: "small-test", displayName: "Small test model", quantization: "Q8_0",
        url: URL(string: "https://huggingface.co/test/small/resolve/main/small-model.gguf")!, bytes: Int64(payload.count),
        format: .sourceTarget, deprecated: false, sha256: nil)

    /// Writes the catalog file and returns the environment that uses it and the server.
    func environment(_ server: TestHTTPServer, home name: String = "home") throws -> [String: String] {
        let catalog = home.file("catalog.json")
        let encoder = JSONEncoder()
        try encoder.encode(["entries": [Self.entry]]).write(to: catalog)
        return [
            "ILOTOKI_HOME": home.file(name).path, "ILOTOKI_CATALOG": catalog.path, "HF_ENDPOINT": server.baseURL.absoluteString,
            "NO_COLOR": "1",
        ]
    }

    @Test func downloadPausedWithCtrlCResumesInASecondRunAndVerifies() async throws {
        let sha256 = SHA256.hex(of: Self.payload)
        let server = try TestHTTPServer()
        server.serve("/cdn/model.gguf", data: Self.payload)
        server.redirect(Self.entry.url!.path, to: "/cdn/model.gguf", linkedEtag: sha256, linkedSize: Self.payload.count)
        server.addFaults([.stallAfter(3 << 20)], for: "/cdn/model.gguf")
        let environment = try environment(server)

        let list = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(list.stdout.contains("HF_ENDPOINT=\(server.baseURL.absoluteString)"))
        #expect(list.stdout.contains("Small test model"))

        // Without a terminal, the licence must be accepted on the command line.
        let refused = try await ToolProcess.run(ilotoki, ["models", "download", Self.entry.id], environment: environment)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("--accept-licence"))
        #expect(server.requests.isEmpty)

        let first = try ToolProcess(ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        let part = home.file("home/models/\(Self.entry.fileName).part")
        #expect(await eventually { ((try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int) ?? 0) >= 3 << 20 })
        first.signal(SIGINT)
        let paused = await first.wait()
        #expect(paused.status == 130)
        #expect(paused.stderr.contains("Paused at 50%"))
        #expect(paused.stderr.contains("downloaded 0%"))  // plain progress lines without a terminal
        #expect(FileManager.default.fileExists(atPath: part.path))

        let listed = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(listed.stdout.contains("partial 50%"))

        let second = try await ToolProcess.run(ilotoki, ["models", "download", Self.entry.id], environment: environment)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.contains("Installed"))
        #expect(second.stderr.contains("resuming at 3.1 MB"))
        #expect(second.stderr.contains("verifying size and sha256"))
        #expect(server.bodyBytesSent < Self.payload.count + (1 << 20))

        let verify = try await ToolProcess.run(ilotoki, ["models", "verify", Self.entry.id], environment: environment)
        #expect(verify.status == 0)
        #expect(verify.stdout.contains(sha256))

        let installed = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(installed.stdout.contains("installed, default"))
        let again = try await ToolProcess.run(ilotoki, ["models", "download", Self.entry.id], environment: environment)
        #expect(again.stdout.contains("already installed"))

        let removed = try await ToolProcess.run(ilotoki, ["models", "remove", Self.entry.id], environment: environment)
        #expect(removed.status == 0)
        #expect(removed.stdout.contains("6.3 MB freed"))
        #expect(!FileManager.default.fileExists(atPath: home.file("home/models/\(Self.entry.fileName)").path))
        for result in [refused, paused, second, verify, removed] { #expect(!result.stderr.contains(".."), "\(result.stderr)") }
    }

    @Test func aMirrorWithoutTheModelIsNamedAndLeavesNothingBehind() async throws {
        let server = try TestHTTPServer()
        let environment = try environment(server, home: "home404")
        let result = try await ToolProcess.run(
            ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("HF_ENDPOINT=\(server.baseURL.absoluteString)"))
        #expect(result.stderr.contains("HTTP 404"))
        #expect(!result.stderr.contains("Update ilo toki"))
        #expect(!result.stderr.contains(".."), "\(result.stderr)")
        // Nothing arrived, so nothing is left: no "partial 0 %".
        #expect(!FileManager.default.fileExists(atPath: home.file("home404/models/\(Self.entry.fileName).part").path))
        let listed = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(listed.stdout.contains("not downloaded"))
        #expect(!listed.stdout.contains("partial"))
    }

    @Test func aMirrorThatAnswersWithAWebPageIsNamed() async throws {
        let server = try TestHTTPServer()
        server.serve(Self.entry.url!.path, data: Data("<html><body>Please log in</body></html>".utf8), contentType: "text/html")
        let environment = try environment(server, home: "home-html")
        let result = try await ToolProcess.run(
            ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("HF_ENDPOINT=\(server.baseURL.absoluteString)"))
        #expect(result.stderr.contains("web page"))
    }

    @Test func aWebPageWithTheRightSizeAndSHA256IsNotInstalled() async throws {
        // A mirror that answers with its own page under the model's name, size and sha256, and
        // calls it a binary file (a page sent as text/html is refused as soon as its head comes).
        var page = Data("<!DOCTYPE html>\n<html><head><title>Mirror maintenance</title></head><body>".utf8)
        page.append(Data(repeating: UInt8(ascii: " "), count: Self.payload.count - page.count))
        let server = try TestHTTPServer()
        server.serve("/cdn/model.gguf", data: page)
        server.redirect(Self.entry.url!.path, to: "/cdn/model.gguf", linkedEtag: SHA256.hex(of: page), linkedSize: page.count)
        let environment = try environment(server, home: "home-page")
        let result = try await ToolProcess.run(
            ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        #expect(result.status == 1)
        #expect(!result.stdout.contains("Installed"))
        #expect(result.stderr.contains("<!DOCTYPE html> <html><head><title>Mirror maintenance"), "the page is named: \(result.stderr)")
        #expect(result.stderr.contains(server.baseURL.absoluteString), "and the endpoint that sent it")
        #expect(result.stderr.contains("nothing was installed"))
        #expect(!result.stderr.contains(".part"), "the file it names is the one the server sent")
        #expect(!result.stderr.contains("gguf_") && !result.stderr.contains("llama_"), "no llama.cpp line: \(result.stderr)")
        let models = home.file("home-page/models")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: models.path)) ?? []
        #expect(!left.contains { $0.hasPrefix(Self.entry.fileName) }, "nothing of it is left: \(left)")
        let listed = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(listed.stdout.contains("not downloaded"))
    }

    @Test func aPlainMirrorWithoutAnSHA256SaysTheSizeWasChecked() async throws {
        // A mirror that is a plain file server (nginx, say): no redirect, no X-Linked-Etag.
        let server = try TestHTTPServer()
        server.serve(Self.entry.url!.path, data: Self.payload)
        let environment = try environment(server, home: "home-plain")
        let result = try await ToolProcess.run(
            ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("verifying size only"))
        #expect(!result.stderr.contains("verifying sha256"))
    }
}
