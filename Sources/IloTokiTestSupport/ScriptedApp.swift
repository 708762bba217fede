import Foundation
import IloTokiCore

/// One app model over a temporary store with scripted seams (an engine that answers from a
/// script, a downloader driven by hand): the fixture the Core suites share.
public struct ScriptedApp {
    public let home: TemporaryDirectory
    public let catalog: ModelCatalog
    public let downloader = ScriptedDownloader()

    public init(_ name: String, catalog: ModelCatalog) {
        home = TemporaryDirectory(name)
        self.catalog = catalog
    }

    public var directories: AppDirectories { AppDirectories(home: home.url) }

    public func store() -> ModelStore { ModelStore(directories: directories, catalog: catalog) }

    /// Puts a catalog model's file in place: "GGUF" and then zeros (a sparse file: no disk), as
    /// many bytes as the catalog says (or estimates, for a model resolved from the Hub).
    public func install(_ entry: CatalogEntry) throws {
        let url = store().fileURL(for: entry)
        try Data("GGUF".utf8).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.truncate(atOffset: UInt64(max(entry.bytes ?? entry.approximateBytes ?? 1024, 4)))
    }

    /// The app model. Every load hands out `engine` (after `load`, when given).
    /// - Parameter isFontInstalled: whether the device can draw with a font family.
    @MainActor
    public func model(
        engine: ScriptedEngine, memory: Int64? = 1 << 40, clock: any Clock<Duration> = ContinuousClock(),
        load: (@Sendable (String) async throws -> Void)? = nil, isFontInstalled: @escaping @MainActor (String) -> Bool = { _ in true }
    ) -> TranslatorModel {
        TranslatorModel(
            store: store(),
            engineLoader: ScriptedEngineLoader { path in
                try await load?(path)
                return engine
            },
            downloader: downloader, availableMemory: { memory }, clock: clock,
            isFontInstalled: isFontInstalled)
    }
}
