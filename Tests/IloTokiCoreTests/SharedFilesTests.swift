import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCore

#if canImport(Glibc)
    import Glibc
#endif

/// History and settings shared by several processes (the command line while the app runs),
/// damaged files, and a home directory that is not the app's to change.
@MainActor
@Suite struct SharedFilesTests {
    static let entry = CatalogEntry(
        id: "current", displayName: "Current", quantization: "Q8_0",
        url: URL(string: "https://huggingface.co/x/current/resolve/main/current.gguf")!, bytes: 4,
        format: .sourceTarget, deprecated: false, sha256: nil)
    static let catalog = ModelCatalog(entries: [entry])

    let home = TemporaryDirectory("shared")
    var directories: AppDirectories { AppDirectories(home: home.url) }

    /// A "process": its own app model over the same home, with a model that answers "<source>!".
    func process() async throws -> TranslatorModel {
        let store = ModelStore(directories: directories, catalog: Self.catalog)
        try Data("GGUF".utf8).write(to: store.fileURL(for: Self.entry))
        let model = TranslatorModel(
            store: store, engineLoader: ScriptedEngineLoader { _ in ScriptedEngine { [" " + $0 + "!"] } },
            downloader: ScriptedDownloader(), availableMemory: { 1 << 40 })
        await model.launch()
        return model
    }

    func translate(_ text: String, with model: TranslatorModel) async throws {
        for try await _ in model.translation(of: text, direction: .englishToTokiPona) {}
        await model.flushWrites()
    }

    func entriesOnDisk() -> [HistoryEntry] { HistoryStore(url: directories.historyFile).load().history.entries }

    @Test func manyTranslationsInARowReachTheDiskTogetherAndNoneIsLost() async throws {
        // Changes that come while a write is waiting go with it: 300 records are a few writes,
        // and the file ends as the screen shows it.
        let model = try await process()
        let texts = (1...300).map { TextToTranslate("line \($0)", direction: .englishToTokiPona) }
        for try await _ in model.translations(of: texts) {}
        await model.flushWrites()
        #expect(entriesOnDisk().map(\.source) == model.history.entries.map(\.source))
        #expect(entriesOnDisk().contains { $0.source == "line 300" })
        #expect(!model.history.entries.isEmpty)
    }

    // MARK: - Two processes, one history

    @Test func twoProcessesTranslatingKeepEachOthersEntries() async throws {
        let first = try await process()
        let second = try await process()  // both read the (empty) history before either writes
        try await translate("one", with: first)
        try await translate("two", with: second)
        try await translate("three", with: first)
        #expect(Set(entriesOnDisk().map(\.source)) == ["one", "two", "three"])
        // Each process shows what the other added once its own write returns (or it looks again).
        #expect(Set(first.history.entries.map(\.source)) == ["one", "two", "three"])
        second.perform(.refresh)
        await second.flushWrites()
        #expect(await eventually { second.history.entries.count == 3 })
        #expect(Set(second.history.entries.map(\.source)) == ["one", "two", "three"])
    }

    @Test func theCapAndTheFavouritesSurviveTheMerge() async throws {
        // 200 entries on disk, the three oldest favourites.
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        var history = History()
        for index in 0..<History.cap {
            history.add(
                HistoryEntry(
                    direction: .englishToTokiPona, source: "old \(index)", result: "x", modelID: "current",
                    date: start.addingTimeInterval(Double(index)), olin: index < 3))
        }
        try HistoryStore(url: directories.historyFile).update { $0 = history }
        let first = try await process()
        let second = try await process()
        for index in 0..<5 {
            try await translate("first \(index)", with: first)
            try await translate("second \(index)", with: second)
        }
        let entries = entriesOnDisk()
        #expect(entries.filter { !$0.olin }.count == History.cap)
        #expect(entries.filter(\.olin).map(\.source).sorted() == ["old 0", "old 1", "old 2"])
        #expect(Set(entries.prefix(10).map(\.source)) == Set((0..<5).flatMap { ["first \($0)", "second \($0)"] }))
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.date >= $1.date })
    }

    @Test func olinSetInOneProcessSurvivesAnEntryAddedInAnother() async throws {
        let first = try await process()
        try await translate("keep me", with: first)
        let second = try await process()
        let id = try #require(first.history.entries.first?.id)
        first.perform(.setOlin(id: id, olin: true))
        await first.flushWrites()
        try await translate("another", with: second)
        second.perform(.clearHistory)
        await second.flushWrites()
        #expect(entriesOnDisk().map(\.source) == ["keep me"])
        #expect(entriesOnDisk().first?.olin == true)
    }

    // MARK: - A damaged file is never overwritten

    @Test func twoDamagedHistoriesInOneSecondAreBothKept() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try Data("first damaged history".utf8).write(to: directories.historyFile)
        let first = try await process()
        try await translate("after the first", with: first)
        try Data("second damaged history".utf8).write(to: directories.historyFile)
        let second = try await process()
        try await translate("after the second", with: second)

        let names = try FileManager.default.contentsOfDirectory(atPath: home.path).filter { $0.hasPrefix("history.json.damaged-") }
        let kept = try names.map { try String(contentsOf: home.file($0), encoding: .utf8) }
        #expect(Set(kept) == ["first damaged history", "second damaged history"])
        #expect(second.notices.contains { $0.contains("history.json was set aside") })
    }

    @Test func aDamagedFileThatCannotBeMovedAsideIsNotWritten() throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let damaged = Data("[{\"not\": \"an entry\"".utf8)
        try damaged.write(to: directories.historyFile)
        var store = HistoryStore(url: directories.historyFile)
        store.file.setAside = { url in throw StoreError.cannotWrite(url.path, reason: "read-only file system") }

        let (history, problem) = store.load()
        #expect(history.entries.isEmpty)
        #expect(problem?.contains("nothing will be written") == true)
        #expect(throws: StoreError.self) {
            try store.update { $0.add(HistoryEntry(direction: .englishToTokiPona, source: "a", result: "b", modelID: "m")) }
        }
        #expect(try Data(contentsOf: directories.historyFile) == damaged)
    }

    @Test func oneDamagedEntryKeepsTheOthersAndTheFile() throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        let good = HistoryEntry(direction: .englishToTokiPona, source: "good", result: "pona", modelID: "m")
        let encoded = String(decoding: try JSONFile.encoder.encode([good]), as: UTF8.self)
        let text = encoded.replacingOccurrences(of: "]", with: ", {\"id\": 7}]")
        try text.write(to: directories.historyFile, atomically: true, encoding: .utf8)
        let (history, problem) = HistoryStore(url: directories.historyFile).load()
        #expect(history.entries.map(\.source) == ["good"])
        #expect(problem?.contains("1 of its 2 entries") == true)
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(names.contains { $0.hasPrefix("history.json.damaged-") })
    }

    // MARK: - Settings fail closed

    @Test func anUnreadableThemeKeepsHistoryOff() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try #"{"theme":"purple","keepHistory":false}"#.write(to: directories.settingsFile, atomically: true, encoding: .utf8)
        let model = try await process()
        #expect(model.settings.keepHistory == false)
        #expect(model.settings.theme == .system)
        #expect(model.notices.contains { $0.contains("theme") && $0.contains("purple") })
        try await translate("private", with: model)
        #expect(entriesOnDisk().isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: home.path)
        #expect(!names.contains { $0.contains("damaged") })  // one odd value does not make the file damaged
    }

    @Test func anUnreadableKeepHistoryMeansOffUntilTheUserSetsIt() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try #"{"keepHistory":"sometimes"}"#.write(to: directories.settingsFile, atomically: true, encoding: .utf8)
        let model = try await process()
        #expect(model.settings.keepHistory == false)
        #expect(model.notices.contains { $0.contains("keepHistory") && $0.contains("stays off") })
        try await translate("private", with: model)
        #expect(entriesOnDisk().isEmpty)
        // Other changes leave the unreadable value as it was, so the next run is still careful.
        model.perform(.setTheme(theme: .dark))
        await model.flushWrites()
        #expect(try String(contentsOf: directories.settingsFile, encoding: .utf8).contains("\"sometimes\""))
        #expect(SettingsStore(url: directories.settingsFile).load().settings.keepHistory == false)
        // Once the user says so, history is kept again.
        model.perform(.setKeepHistory(on: true))
        await model.flushWrites()
        try await translate("now kept", with: model)
        #expect(entriesOnDisk().map(\.source) == ["now kept"])
        #expect(SettingsStore(url: directories.settingsFile).load().problems.isEmpty)
    }

    @Test func unknownFieldsAreKeptOnSave() async throws {
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try #"{"fromANewerVersion":{"a":[1,2]},"theme":"dark"}"#.write(to: directories.settingsFile, atomically: true, encoding: .utf8)
        let model = try await process()
        #expect(model.settings.theme == .dark)
        model.perform(.setTranslateAsYouType(on: true))
        await model.flushWrites()
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: directories.settingsFile)) as? [String: Any]
        #expect((object?["fromANewerVersion"] as? [String: Any])?["a"] as? [Int] == [1, 2])
        #expect(object?["translateAsYouType"] as? Bool == true)
        #expect(object?["theme"] as? String == "dark")
    }

    @Test func settingsChangedByTwoProcessesKeepBothChanges() async throws {
        let first = try await process()
        let second = try await process()
        first.perform(.setTheme(theme: .dark))
        await first.flushWrites()
        second.perform(.setKeepHistory(on: false))
        await second.flushWrites()
        let settings = SettingsStore(url: directories.settingsFile).load().settings
        #expect(settings.theme == .dark)
        #expect(settings.keepHistory == false)
    }

    // MARK: - The home directory

    @Test func anExistingHomeKeepsItsMode() throws {
        for mode: mode_t in [0o1777, 0o755, 0o2750] {
            let existing = home.url.appendingPathComponent("home-\(String(mode, radix: 8))")
            try FileManager.default.createDirectory(at: existing, withIntermediateDirectories: true)
            chmod(existing.path, mode)
            let store = ModelStore(directories: AppDirectories(home: existing), catalog: Self.catalog)
            #expect(store.homeProblem == nil)
            let after = try FileManager.default.attributesOfItem(atPath: existing.path)[.posixPermissions] as? NSNumber
            #expect(after?.uint16Value == UInt16(mode), "mode \(String(mode, radix: 8))")
            let models = try FileManager.default.attributesOfItem(atPath: existing.appendingPathComponent("models").path)
            #expect(((models[.posixPermissions] as? NSNumber)?.intValue ?? 0) & 0o777 == 0o700)  // the setgid bit may be inherited
        }
    }

    @Test func aHomeThatCannotBeMadeStillTranslatesAModelFileWithOneNote() async throws {
        let blocker = home.file("a-file")
        try Data("x".utf8).write(to: blocker)
        let store = ModelStore(directories: AppDirectories(home: blocker.appendingPathComponent("ilotoki")), catalog: Self.catalog)
        #expect(store.homeProblem != nil)
        let model = TranslatorModel(
            store: store, engineLoader: ScriptedEngineLoader { _ in ScriptedEngine { [" " + $0 + "!"] } },
            downloader: ScriptedDownloader(), availableMemory: { 1 << 40 })
        model.prepare()
        await model.run(.useFileForSession(path: blocker.path, format: .sourceTarget))
        #expect(model.modelState == .ready)
        var result = ""
        for try await progress in model.translation(of: "hello", direction: .englishToTokiPona) { result = progress.text }
        await model.flushWrites()
        #expect(result == "hello!")
        #expect(model.notices.count == 1)
        #expect(model.notices.first?.contains("no history") == true)
    }

    // MARK: - Removing a model that is downloading

    @Test func removingAModelWhileItDownloadsIsRefused() throws {
        let store = ModelStore(directories: directories, catalog: Self.catalog)
        let part = store.partURL(for: Self.entry)
        try Data("GG".utf8).write(to: part)
        let lock = try #require(try FileLock.acquire(part, create: false))  // what a running download holds
        #expect(throws: StoreError.downloadInProgress(model: "Current")) { try store.delete(Self.entry) }
        #expect(FileManager.default.fileExists(atPath: part.path))
        lock.release()
        try store.delete(Self.entry)
        #expect(!FileManager.default.fileExists(atPath: part.path))
    }

    @Test func addingAFileThatCannotTranslateIsRefused() async throws {
        let file = home.file("other.gguf")
        try FileManager.default.createDirectory(at: home.url, withIntermediateDirectories: true)
        try Data("GGUF and then nothing useful".utf8).write(to: file)
        struct Unsupported: Error {}
        let model = TranslatorModel(
            store: ModelStore(directories: directories, catalog: Self.catalog),
            engineLoader: ScriptedEngineLoader { _ in throw Unsupported() }, downloader: ScriptedDownloader())
        model.prepare()
        #expect(
            await model.run(.importModel(ModelImport(path: file.path, format: .sourceTarget)))
                == .failed(reason: Unsupported().localizedDescription))
        #expect(model.notices.isEmpty)  // the failure was returned to the one who waited, not noted
        #expect(model.store.sideloadedModels().isEmpty)
    }
}
