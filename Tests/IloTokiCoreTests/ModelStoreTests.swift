import Foundation
import IloTokiTestSupport
import Testing

@testable import IloTokiCore

@Suite struct ModelStoreTests {
    /// A catalog of small fake models, so files of "the right size" are cheap to make.
    static let catalog = ModelCatalog(entries: [
        CatalogEntry(
            id: "small-a", displayName: "Small A", quantization: "Q8_0",
            url: URL(string: "https://huggingface.co/x/a/resolve/main/small-a.gguf")!, bytes: 1000,
            format: .sourceTarget, deprecated: false, sha256: nil),
        CatalogEntry(
            id: "small-b", displayName: "Small B", quantization: "Q6_K",
            url: URL(string: "https://huggingface.co/x/b/resolve/main/small-b.gguf")!, bytes: 2000,
            format: .queryAnswer, deprecated: true, sha256: nil),
    ])

    let home = TemporaryDirectory("store")
    var directories: AppDirectories { AppDirectories(home: home.url) }

    func store() throws -> ModelStore { ModelStore(directories: directories, catalog: Self.catalog) }

    func write(_ bytes: Int, to url: URL) throws {
        try Data(repeating: 0x47, count: bytes).write(to: url)
    }

    @Test func missingDirectoriesAreMadeUserOnly() throws {
        let fresh = AppDirectories(home: home.url.appendingPathComponent("new/ilotoki"))
        let store = ModelStore(directories: fresh, catalog: Self.catalog)
        #expect(store.homeProblem == nil)
        for url in [fresh.home, fresh.models] {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        }
    }

    @Test func statesOfCompleteShortAndPartialFiles() throws {
        let store = try store()
        try #require(Self.catalog.entries.count >= 2)
        let a = Self.catalog.entries[0]
        let b = Self.catalog.entries[1]
        #expect(store.state(of: a) == .notInstalled)
        try write(1000, to: store.fileURL(for: a))
        #expect(store.state(of: a) == .installed)
        try write(300, to: store.partURL(for: b))
        #expect(store.state(of: b) == .partial(bytes: 300))
        try write(1999, to: store.fileURL(for: b))
        #expect(store.state(of: b) == .damaged(bytes: 1999))
        #expect(store.installedEntries().map(\.id) == ["small-a"])
        #expect(store.bytesOnDisk(for: b) == 2299)
        #expect(store.statuses().map(\.state) == [.installed, .damaged(bytes: 1999)])
    }

    @Test func deleteRemovesTheFilePartAndRecords() throws {
        let store = try store()
        let a = try #require(Self.catalog.entries.first)
        try write(1000, to: store.fileURL(for: a))
        try "abc\n".write(to: ModelStore.sha256RecordURL(for: store.fileURL(for: a)), atomically: true, encoding: .utf8)
        try write(10, to: store.partURL(for: a))
        #expect(store.recordedSHA256(for: a) == "abc")
        try store.delete(a)
        #expect(store.state(of: a) == .notInstalled)
        #expect(store.recordedSHA256(for: a) == nil)
        try store.delete(a)  // deleting what is not there is fine
    }

    @Test func orphanSweepRemovesExactlyTheUnclaimedModelFiles() throws {
        let store = try store()
        let models = directories.models
        let sideloadedFile = models.appendingPathComponent("my-own.gguf")
        try Data("GGUF....".utf8).write(to: sideloadedFile)
        try store.addSideloaded(path: sideloadedFile.path, format: .sourceTarget)

        try write(1000, to: models.appendingPathComponent("small-a.gguf"))  // claimed model
        try write(10, to: models.appendingPathComponent("small-b.gguf.part"))  // claimed .part
        try write(10, to: models.appendingPathComponent("retired.gguf"))  // unclaimed
        try write(10, to: models.appendingPathComponent("retired-too.gguf.part"))  // unclaimed
        try "{}".write(to: models.appendingPathComponent("settings.json"), atomically: true, encoding: .utf8)
        try "[]".write(to: models.appendingPathComponent("history.json"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: models.appendingPathComponent("subdirectory.gguf"), withIntermediateDirectories: true)
        try "note".write(to: models.appendingPathComponent("README"), atomically: true, encoding: .utf8)

        let removed = store.sweepOrphans()
        #expect(Set(removed.map(\.lastPathComponent)) == ["retired.gguf", "retired-too.gguf.part"])
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: models.path))
        #expect(
            left == ["small-a.gguf", "small-b.gguf.part", "my-own.gguf", "settings.json", "history.json", "subdirectory.gguf", "README"])
    }

    @Test func orphanSweepKeepsTheFileNamedWithModelOption() throws {
        let store = try store()
        let file = directories.models.appendingPathComponent("passed-with-model.gguf")
        try write(10, to: file)
        #expect(store.sweepOrphans(keeping: [file]).isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))
    }

    @Test func orphanSweepKeepsAPartHeldByARunningDownload() throws {
        let store = try store()
        let part = directories.models.appendingPathComponent("being-downloaded.gguf.part")
        try write(10, to: part)
        let lock = try #require(try FileLock.acquire(part, create: false))
        #expect(store.sweepOrphans().isEmpty)
        #expect(FileManager.default.fileExists(atPath: part.path))
        lock.release()
        #expect(store.sweepOrphans().map(\.lastPathComponent) == ["being-downloaded.gguf.part"])
    }

    @Test func orphanSweepTakesTheRecordsOfWhatItRemoves() throws {
        let store = try store()
        let orphan = directories.models.appendingPathComponent("retired.gguf")
        try write(10, to: orphan)
        try "abc".write(to: ModelStore.sha256RecordURL(for: orphan), atomically: true, encoding: .utf8)
        store.sweepOrphans()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directories.models.path).isEmpty)
    }

    @Test func sideloadedModelsPersistAcrossStores() throws {
        let outside = TemporaryDirectory("outside")
        let file = outside.file("Custom Model.gguf")
        try Data("GGUF and more".utf8).write(to: file)
        let added = try store().addSideloaded(path: file.path, format: .queryAnswer)
        #expect(added.name == "Custom Model")
        #expect(added.id.hasPrefix("local-"))
        let named = try store().addSideloaded(path: file.path, name: "Mine", format: .queryAnswer)
        #expect(named.id == added.id)  // the same file is added once

        let reopened = try store().sideloadedModels()
        #expect(reopened.count == 1)
        #expect(reopened.first?.format == .queryAnswer)
        #expect(reopened.first?.isMissing == false)

        try store().removeSideloaded(id: added.id)
        #expect(try store().sideloadedModels().isEmpty)
        #expect(FileManager.default.fileExists(atPath: file.path))  // the file itself is not touched
        #expect(throws: StoreError.self) { try store().removeSideloaded(id: added.id) }
    }

    @Test func aSideloadedFileThatWentMissingIsReportedNotDropped() throws {
        let outside = TemporaryDirectory("outside")
        let file = outside.file("gone.gguf")
        try Data("GGUF".utf8).write(to: file)
        try store().addSideloaded(path: file.path, format: .sourceTarget)
        try FileManager.default.removeItem(at: file)
        let models = try store().sideloadedModels()
        #expect(models.count == 1)
        #expect(models.first?.isMissing == true)
    }

    @Test func onlyGGUFFilesCanBeSideloaded() throws {
        let outside = TemporaryDirectory("outside")
        let text = outside.file("notes.gguf")
        try Data("hello".utf8).write(to: text)
        #expect(throws: StoreError.self) { try store().addSideloaded(path: text.path, format: .sourceTarget) }
        #expect(throws: StoreError.self) { try store().addSideloaded(path: outside.file("none.gguf").path, format: .sourceTarget) }
        #expect(throws: StoreError.self) { try store().addSideloaded(path: outside.path, format: .sourceTarget) }
    }

    @Test func aDamagedSideloadListIsSetAsideNotLost() throws {
        try FileManager.default.createDirectory(at: directories.home, withIntermediateDirectories: true)
        try "{ not json".write(to: directories.sideloadedFile, atomically: true, encoding: .utf8)
        #expect(try store().sideloadedModels().isEmpty)
        let names = try FileManager.default.contentsOfDirectory(atPath: directories.home.path)
        #expect(names.contains { $0.hasPrefix("sideloaded.json.damaged-") })
    }
}

@Suite struct AppDirectoriesTests {
    @Test func ilotokiHomeWins() {
        let directories = AppDirectories.standard(environment: ["ILOTOKI_HOME": "/data/tp", "XDG_DATA_HOME": "/xdg", "HOME": "/home/u"])
        #expect(directories.home.path == "/data/tp")
        #expect(directories.models.path == "/data/tp/models")
    }

    #if os(Linux)
        @Test func xdgDataHomeThenLocalShare() {
            #expect(AppDirectories.standard(environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"]).home.path == "/xdg/ilotoki")
            #expect(AppDirectories.standard(environment: ["HOME": "/home/u"]).home.path == "/home/u/.local/share/ilotoki")
            // A relative XDG_DATA_HOME is invalid by the XDG specification and ignored.
            #expect(
                AppDirectories.standard(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u"]).home.path
                    == "/home/u/.local/share/ilotoki")
        }
    #endif

    @Test func filesLiveInHome() {
        let directories = AppDirectories(home: URL(fileURLWithPath: "/h"))
        #expect(directories.settingsFile.path == "/h/settings.json")
        #expect(directories.historyFile.path == "/h/history.json")
    }
}
