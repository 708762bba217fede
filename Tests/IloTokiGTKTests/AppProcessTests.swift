import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The real `ilotoki-gtk` process, under the display the tests run on (Xvfb): GTK's own loop
/// runs the app, and the keyboard drives it through xdotool. The app writes what it shows to
/// a report file after every redraw (`--report`).
@Suite(.serialized, .exclusiveModelUse) struct AppProcessTests {
    let directory = TemporaryDirectory("gtk-process")
    let app = ToolProcess.executable("ilotoki-gtk")

    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["GSK_RENDERER"] = "cairo"
        environment["NO_AT_BRIDGE"] = "1"
        environment["LANG"] = "en_US.UTF-8"
        environment["ILOTOKI_HOME"] = directory.file("home").path
        environment["ILOTOKI_FONT_DIRS"] = TestModels.sitelenPonaFont
        return environment
    }

    func report(_ file: URL) -> [String: String] {
        guard let data = try? Data(contentsOf: file) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: data) as? [String: String]) ?? [:]
    }

    func waitFor(_ file: URL, _ what: Comment, timeout: Duration = .seconds(20), _ condition: ([String: String]) -> Bool) async -> [String:
        String]
    {
        let deadline = ContinuousClock.now + timeout * testTimeScale
        while ContinuousClock.now < deadline {
            let current = report(file)
            if condition(current) { return current }
            try? await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("timed out: \(what); last report: \(report(file))")
        return report(file)
    }

    func xdotool(_ arguments: [String]) async throws {
        let result = try await ToolProcess.run(URL(fileURLWithPath: "/usr/bin/xdotool"), arguments, environment: environment)
        #expect(result.status == 0, "xdotool \(arguments): \(result.stderr)")
    }

    /// A session bus of the test's own (`dbus-daemon --session`), so that the app is unique on
    /// it and nothing of the desktop the tests may run on is touched.
    func withSessionBus(_ body: ([String: String]) async throws -> Void) async throws {
        let daemon = try ToolProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--session", "--nofork", "--print-address=1"], environment: environment)
        defer { daemon.signal(SIGTERM) }
        try await daemon.waitForStdout(timeout: .seconds(60)) { $0.contains("\n") }
        var environment = environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = daemon.stdoutSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
        try await body(environment)
    }

    @Test func aSecondStartHandsItsTextToTheRunningWindow() async throws {
        try await withSessionBus { environment in
            let reportFile = directory.file("unique.json")
            let first = try ToolProcess(app, ["--demo", "--report", reportFile.path], environment: environment)
            defer { first.signal(SIGTERM) }
            _ = await waitFor(reportFile, "the app is up") { $0["target"] == "The person eats fruit." }

            // A second start ends at once; its text is translated in the first one's window.
            let second = try await ToolProcess.run(app, ["--demo", "--translate", "I love you."], environment: environment)
            #expect(second.status == 0, "\(second.stderr)")
            let translated = await waitFor(reportFile, "translated in the running window") { $0["target"] == "mi olin e sina." }
            #expect(translated["source"] == "I love you." && translated["direction"] == "en→tok")

            // What is highlighted in another app (the primary selection), for a keyboard shortcut.
            let selection = try ToolProcess(
                URL(fileURLWithPath: "/usr/bin/xclip"), ["-selection", "primary", "-loops", "2"], environment: environment)
            selection.write(Data("Доброе утро!".utf8))
            selection.closeInput()
            // The selection is there once another client reads it back (one of its two loops).
            var owned = false
            let deadline = ContinuousClock.now + .seconds(20) * testTimeScale
            while !owned && ContinuousClock.now < deadline {
                let read = try await ToolProcess.run(
                    URL(fileURLWithPath: "/usr/bin/xclip"), ["-selection", "primary", "-o"], environment: environment)
                owned = read.stdout == "Доброе утро!"
            }
            #expect(owned, "xclip holds the primary selection")
            let third = try await ToolProcess.run(app, ["--demo", "--selection"], environment: environment)
            #expect(third.status == 0, "\(third.stderr)")
            let fromSelection = await waitFor(reportFile, "the selection translated") { $0["target"] == "tenpo suno pona!" }
            #expect(fromSelection["direction"] == "ru→tok")

            // A start with a usage mistake is refused there, and the window is left as it was.
            let wrong = try await ToolProcess.run(app, ["--demo", "--translate"], environment: environment)
            #expect(wrong.status == 2 && wrong.stderr.contains("--translate needs a value"))
            #expect(report(reportFile)["source"] == "Доброе утро!")
            first.signal(SIGTERM)
            #expect(await first.wait().status == 0)
        }
    }

    /// The real app downloads a model from a server on 127.0.0.1 that answers like the Hub
    /// (its catalog names the repository), the window goes to the background meanwhile, and once
    /// the model has loaded one desktop notification says the translator is ready: received by
    /// a notification server on the test's own session bus.
    @Test func aModelFetchedWhileTheWindowIsAwaySaysItIsReady() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gemma)[.size] as? Int)
        let server = try TestHTTPServer()
        let name = "gemma-3-270m-q4_k_m.gguf"
        try server.serve("/cdn/\(name)", file: URL(fileURLWithPath: gemma))
        let listing = #"{"sha": "abc", "siblings": [{"rfilename": "\#(name)"}]}"#
        server.serve("/api/models/test/gemma/revision/main", data: Data(listing.utf8), contentType: "application/json")
        server.redirect("/test/gemma/resolve/main/\(name)", to: "/cdn/\(name)", linkedEtag: nil, linkedSize: size, host: "localhost")
        // Three cuts on the way, each retried after a longer pause (0.5, 1, 2 s): the download
        // takes long enough for the window to go away first.
        server.addFaults([.cutAfter(1 << 20), .cutAfter(1 << 20), .cutAfter(1 << 20)], for: "/cdn/\(name)")
        let catalog = directory.file("catalog.json")
        try Data(
            #"{"entries": [{"id": "gemma", "displayName": "Gemma 3 270M", "quantization": "Q4_K_M", "repository": "test/gemma", "format": "sourceTarget"}]}"#
                .utf8
        )
        .write(to: catalog)
        let home = directory.file("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data(#"{"acceptedModelLicence": true}"#.utf8).write(to: home.appendingPathComponent("settings.json"))

        try await withSessionBus { environment in
            var environment = environment
            environment["ILOTOKI_CATALOG"] = catalog.path
            environment["HF_ENDPOINT"] = server.baseURL.absoluteString
            let notifications = try ToolProcess(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [TestModels.repositoryRoot.appendingPathComponent("scripts/fake_notifications.py").path],
                environment: environment)
            defer { notifications.signal(SIGTERM) }
            try await notifications.waitForStdout(timeout: .seconds(60)) { $0.contains("ready") }

            let reportFile = directory.file("ready.json")
            let tool = try ToolProcess(app, ["--report", reportFile.path], environment: environment)
            defer { tool.signal(SIGTERM) }
            _ = await waitFor(reportFile, "the app offers the download") {
                $0["model"] == "notDownloaded" && $0["slab"] == "Download the model"
            }
            let window = try await ToolProcess.run(
                URL(fileURLWithPath: "/usr/bin/xdotool"), ["search", "--sync", "--onlyvisible", "--name", "^ilo toki$"],
                environment: environment)
            let id = try #require(window.stdout.split(separator: "\n").first.map(String.init))
            let rootSearch = try await ToolProcess.run(
                URL(fileURLWithPath: "/usr/bin/xdotool"), ["search", "--maxdepth", "0", "--name", ""], environment: environment)
            let root = String(rootSearch.stdout.split(separator: "\n").first ?? "")
            // Away and back: the window reports again, laid out (where the slab is).
            try await xdotool(["windowfocus", "--sync", root])
            try await xdotool(["windowfocus", "--sync", id])
            let laidOut = await waitFor(reportFile, "the slab laid out") {
                $0["typing"] == "true" && ![nil, "", "0,0"].contains($0["slabCentre"])
            }
            let centre = (laidOut["slabCentre"] ?? "").split(separator: ",").map(String.init)
            try #require(centre.count == 2)
            try await xdotool(["mousemove", "--window", id, centre[0], centre[1], "click", "1"])
            // Away from the window: the pointer leaves it and the keyboard goes to the desktop
            // (the root window; with the pointer still over the window, the focus would follow it back).
            try await xdotool(["mousemove", "1270", "1010"])
            try await xdotool(["windowfocus", "--sync", root])
            _ = await waitFor(reportFile, "the window is away") { $0["typing"] == "false" }
            let ready = await waitFor(reportFile, "downloaded, loaded and told", timeout: .seconds(90)) { $0["notifications"] == "1" }
            #expect(ready["model"] == "ready" && ready["typing"] == "false")
            try await notifications.waitForStdout(timeout: .seconds(60)) { $0.contains("notify\t") }
            let line = notifications.stdoutSoFar.split(separator: "\n").first { $0.hasPrefix("notify\t") }.map(String.init) ?? ""
            #expect(
                line
                    == "notify\tilo toki\tThe translator is ready\tGemma 3 270M is downloaded and loaded. It translates on this device, offline.",
                "\(line)")
            #expect(server.requests.contains { $0.path == "/api/models/test/gemma/revision/main" })
        }
    }

    @Test func asyncWorkReachesTheScreenWhileGTKsLoopRuns() async throws {
        // Launching, the scripted translation streaming in and the screenshot all run as Swift
        // async work on the main actor, inside GTK's own loop: none of it would happen if the
        // loop did not serve the main queue.
        let screenshot = directory.file("shot.png")
        let reportFile = directory.file("report.json")
        let result = try await ToolProcess.run(
            app, ["--demo", "--screenshot", screenshot.path, "--report", reportFile.path], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let shown = report(reportFile)
        #expect(shown["target"] == "The person eats fruit.")
        #expect(shown["source"] == "jan li moku e kili.")
        #expect(shown["jelo"] == "1")
        let png = try Data(contentsOf: screenshot)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test func theKeyboardTranslatesSwapsAndStops() async throws {
        let reportFile = directory.file("keys.json")
        let tool = try ToolProcess(app, ["--demo", "--text", "", "--report", reportFile.path], environment: environment)
        defer { tool.signal(SIGTERM) }
        _ = await waitFor(reportFile, "the app is up") { $0["model"] == "ready" }
        try await xdotool(["search", "--sync", "--onlyvisible", "--name", "^ilo toki$", "windowfocus", "--sync"])
        _ = await waitFor(reportFile, "typing reaches the source plate") { $0["typing"] == "true" }

        try await xdotool(["type", "--delay", "20", "mi olin e sina."])
        _ = await waitFor(reportFile, "typed") { $0["source"] == "mi olin e sina." }
        try await xdotool(["key", "ctrl+Return"])
        let translated = await waitFor(reportFile, "translated") { $0["target"] == "I love you." }
        #expect(translated["direction"] == "tok→en")

        try await xdotool(["key", "ctrl+shift+s"])
        let swapped = await waitFor(reportFile, "swapped") { $0["direction"] == "en→tok" }
        #expect(swapped["source"] == "I love you.")
        #expect(swapped["target"] == "mi olin e sina.")

        // A long translation, stopped with Escape.
        try await xdotool(["key", "ctrl+a", "BackSpace"])
        _ = await waitFor(reportFile, "cleared") { $0["source"] == "" }
        try await xdotool(["type", "--delay", "2", String(repeating: "The person eats fruit and the cat sleeps. ", count: 6)])
        try await xdotool(["key", "ctrl+Return"])
        _ = await waitFor(reportFile, "translating") { $0["translation"] == "translating" }
        try await xdotool(["key", "Escape"])
        let stopped = await waitFor(reportFile, "stopped") { $0["translation"] == "idle" }
        #expect(stopped["translation"] == "idle")
        tool.signal(SIGTERM)
        let ended = await tool.wait()
        #expect(ended.status == 0, "SIGTERM ends the app cleanly: \(ended.stderr)")
    }

    @Test func typedTextStreamsFromTheRealModelAndLandsInTheHistory() async throws {
        let gemma = try TestModels.require(TestModels.gemma)
        let reportFile = directory.file("gemma.json")
        let tool = try ToolProcess(app, ["--model", gemma, "--report", reportFile.path], environment: environment)
        defer { tool.signal(SIGKILL) }
        _ = await waitFor(reportFile, "the model is loaded") { $0["model"] == "ready" && $0["slab"] == "Translate" }
        try await xdotool(["search", "--sync", "--onlyvisible", "--name", "^ilo toki$", "windowfocus", "--sync"])
        _ = await waitFor(reportFile, "typing reaches the source plate") { $0["typing"] == "true" }

        // English is detected and goes into Toki Pona; Gemma 270M echoes it, piece by piece
        // (18 tokens: long enough to be seen arriving).
        let sentence = "The cat sleeps on the warm mat, and the dog runs in the green garden."
        try await xdotool(["type", "--delay", "20", sentence])
        _ = await waitFor(reportFile, "typed") { $0["source"] == sentence }
        try await xdotool(["key", "ctrl+Return"])
        var shownWhileTranslating: [String] = []
        // A minute: the suites run side by side, and Gemma decodes on a shared core meanwhile.
        let translated = await waitFor(reportFile, "translated", timeout: .seconds(60)) { shown in
            if shown["translation"] == "translating", let target = shown["target"], !target.isEmpty { shownWhileTranslating.append(target) }
            return shown["translation"] == "done"
        }
        #expect(translated["target"] == sentence)
        #expect(translated["direction"] == "en→tok")
        #expect(translated["jelo"] == "1")
        // Pieces arrived over time: the plate showed text before the translation was done.
        #expect(!shownWhileTranslating.isEmpty, "the target showed nothing until the translation was done")

        try await xdotool(["key", "ctrl+shift+s"])
        let swapped = await waitFor(reportFile, "swapped") { $0["direction"] == "tok→en" }
        #expect(swapped["source"] == sentence)

        // SIGTERM quits cleanly, and the translation is in the history on disk.
        tool.signal(SIGTERM)
        let ended = await tool.wait()
        #expect(ended.status == 0, "\(ended.stderr)")
        let history = try String(contentsOf: directory.file("home/history.json"), encoding: .utf8)
        #expect(history.contains("The cat sleeps on the warm mat"))
    }

    @Test func quittingMidTranslationEndsCleanlyAndKeepsOnlyWhatFinished() async throws {
        // The app quits (SIGTERM takes the same way out as closing the window: GTK's loop
        // returns) while the real model decodes: the engine is stopped and waited for before
        // the process exits, so it ends with 0, never a crash, and the unfinished
        // translation is not in the history.
        let gemma = try TestModels.require(TestModels.gemma)
        let reportFile = directory.file("quit.json")
        // Twelve lines, translated one after another: seconds of decoding.
        let long = Array(repeating: "The cat sleeps on the warm mat, and the dog runs in the green garden.", count: 12).joined(
            separator: "\n")
        let tool = try ToolProcess(app, ["--model", gemma, "--text", long, "--report", reportFile.path], environment: environment)
        defer { tool.signal(SIGKILL) }
        _ = await waitFor(reportFile, "the model is loaded") { $0["model"] == "ready" && $0["slab"] == "Translate" }
        try await xdotool(["search", "--sync", "--onlyvisible", "--name", "^ilo toki$", "windowfocus", "--sync"])
        _ = await waitFor(reportFile, "typing reaches the source plate") { $0["typing"] == "true" }
        try await xdotool(["key", "ctrl+Return"])
        _ = await waitFor(reportFile, "the translation streams") { $0["translation"] == "translating" && $0["target"]?.isEmpty == false }
        tool.signal(SIGTERM)
        let ended = await tool.wait()
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(!ended.stderr.contains("Fatal error") && !ended.stderr.contains("Segmentation"), "\(ended.stderr)")
        let history = HistoryStore(url: AppDirectories(home: directory.file("home")).historyFile).load().history
        #expect(!history.entries.contains { $0.source == long })
    }
}
