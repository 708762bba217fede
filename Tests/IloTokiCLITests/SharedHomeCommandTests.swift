import Foundation
import IloTokiCore
import IloTokiTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Several `ilotoki` processes on one home, a download another process is running, model
/// files that cannot translate, and a home that cannot be written.
@Suite(.exclusiveModelUse) struct SharedHomeCommandTests {
    let home = TemporaryDirectory("cli-shared")
    let ilotoki = ToolProcess.executable("ilotoki")

    var environment: [String: String] { ["ILOTOKI_HOME": home.path, "NO_COLOR": "1"] }

    @Test func fourProcessesTranslatingAtOnceKeepAllTwentyEntries() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        // One decoding thread each: four processes share two cores.
        let processes = try (1...4).map { process in
            let tool = try ToolProcess(ilotoki, ["--model", tiny, "--from", "en", "--json", "--threads", "1"], environment: environment)
            tool.write(Data((1...5).map { "process \(process) sentence \($0)\n" }.joined().utf8))
            tool.closeInput()
            return tool
        }
        for tool in processes {
            let result = await tool.wait()
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 5)
        }
        let entries = HistoryStore(url: AppDirectories(home: home.url).historyFile).load().history.entries
        let expected = Set((1...4).flatMap { process in (1...5).map { "process \(process) sentence \($0)" } })
        #expect(Set(entries.map(\.source)) == expected)
        #expect(entries.count == 20)
    }

    @Test func addingAModelThatCannotTranslateIsRefusedAndChangesNothing() async throws {
        let unknown = try TestModels.require(TestModels.unknownArchitecture)
        let added = try await ToolProcess.run(ilotoki, ["models", "add", unknown, "--format", "sourceTarget"], environment: environment)
        #expect(added.status == 1)
        #expect(added.stderr.contains("architecture"))
        #expect(added.stderr.contains("ilotoki-unknown-architecture"))
        let list = try await ToolProcess.run(ilotoki, ["models"], environment: environment)
        #expect(!list.stdout.contains("local-"))
        // A later plain translation still says what to download, instead of failing on that file.
        let translated = try await ToolProcess.run(ilotoki, ["mi moku"], environment: environment)
        #expect(translated.status == 1)
        #expect(translated.stderr.contains("ilotoki models download"))
    }

    @Test func aHomeThatCannotBeWrittenStillTranslatesAModelFile() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        let blocker = home.file("not-a-directory")
        try Data("x".utf8).write(to: blocker)
        let environment = ["ILOTOKI_HOME": blocker.appendingPathComponent("ilotoki").path, "NO_COLOR": "1"]
        let result = try await ToolProcess.run(ilotoki, ["--model", tiny, "--from", "en", "hello"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try await ExpectedTranslation.of("hello", .englishToTokiPona, model: tiny)) + "\n")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("note:") }
        #expect(notes.count == 1, "\(result.stderr)")
        #expect(notes.first?.contains("no history") == true)
        // Without a model file there is nothing to translate with: the home's problem is the error.
        let withoutFile = try await ToolProcess.run(ilotoki, ["hello"], environment: environment)
        #expect(withoutFile.status == 1)
        #expect(withoutFile.stderr.contains(blocker.path))
    }

    @Test func anExistingHomeKeepsItsMode() async throws {
        let tiny = try TestModels.require(TestModels.tiny)
        chmod(home.path, 0o1777)
        let result = try await ToolProcess.run(ilotoki, ["--model", tiny, "--from", "en", "hello"], environment: environment)
        #expect(result.status == 0)
        let mode = try FileManager.default.attributesOfItem(atPath: home.path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o1777)
    }
}

/// `models remove` while another process downloads that model.
@Suite(.serialized) struct RemoveWhileDownloadingTests {
    let home = TemporaryDirectory("cli-remove")
    let ilotoki = ToolProcess.executable("ilotoki")
    /// A catalog model whose size the catalog knows (1.1; the default, 1.3, is read from the Hub).
    static let entry = ModelCatalog.standard.entry(id: "milmmt-46-1b-v1-1-q8-0")!

    @Test func removeIsRefusedWhileAnotherProcessDownloadsTheModel() async throws {
        let file = home.file("served.gguf")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.entry.bytes!))  // sparse: the catalog's size, no disk
        try handle.close()
        let server = try TestHTTPServer()
        try server.serve("/cdn/model.gguf", file: file)
        server.redirect(Self.entry.url!.path, to: "/cdn/model.gguf", linkedEtag: nil, linkedSize: Int(Self.entry.bytes!))
        server.addFaults([.stallAfter(1 << 20)], for: "/cdn/model.gguf")
        let environment = ["ILOTOKI_HOME": home.file("home").path, "HF_ENDPOINT": server.baseURL.absoluteString, "NO_COLOR": "1"]

        let download = try ToolProcess(ilotoki, ["models", "download", Self.entry.id, "--accept-licence"], environment: environment)
        let part = home.file("home/models/\(Self.entry.fileName).part")
        for _ in 0..<3000 {
            let size = (try? FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int) ?? 0
            if size >= 1 << 20 { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let removed = try await ToolProcess.run(ilotoki, ["models", "remove", Self.entry.id], environment: environment)
        #expect(removed.status == 1)
        #expect(removed.stderr.contains(Self.entry.displayName))
        #expect(removed.stderr.contains("being downloaded"))
        #expect(FileManager.default.fileExists(atPath: part.path))

        download.signal(SIGINT)
        let paused = await download.wait()
        #expect(paused.status == 130)
        #expect(paused.stderr.contains("partial download is kept"))
        #expect(FileManager.default.fileExists(atPath: part.path))
        // Once the download has let go, remove works.
        let removedAfter = try await ToolProcess.run(ilotoki, ["models", "remove", Self.entry.id], environment: environment)
        #expect(removedAfter.status == 0, "\(removedAfter.stderr)")
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }
}
