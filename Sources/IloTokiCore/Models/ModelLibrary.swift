import Foundation
import Observation

/// A download the user started, and where it stands.
public struct DownloadStatus: Equatable, Sendable {
    public enum Phase: Equatable, Sendable {
        case running(DownloadProgress)
        case paused(DownloadProgress)
        case verifying
        case failed(String)
    }

    public let entry: CatalogEntry
    public var phase: Phase

    /// The file's size, once the download knows it (for a Hub file: from its listing).
    public var total: Int64? {
        switch phase {
        case .running(let progress), .paused(let progress): progress.total
        case .verifying, .failed: nil
        }
    }

    /// 0…1 for the progress line.
    public var fraction: Double {
        switch phase {
        case .running(let progress), .paused(let progress): progress.fraction ?? 0
        case .verifying: 1
        case .failed: 0
        }
    }
}

/// The models on this device as a front end shows them: the catalog with what is installed or
/// partly downloaded, the files added from elsewhere, and the download under way.
///
/// What it shows is read from the disk once and kept (`statuses`, `sideloaded`), and read
/// again after every change it makes itself, so a view that draws it never reads the disk;
/// `refresh()` picks up changes another process made (the command line while the app runs).
@MainActor
@Observable
public final class ModelLibrary {
    public let store: ModelStore
    /// Every catalog model with its state on disk, in catalog order.
    public private(set) var statuses: [ModelStatus] = []
    /// The models added from elsewhere on the device.
    public private(set) var sideloaded: [SideloadedModel] = []
    /// The download the user started, while it runs, pauses or fails.
    public private(set) var activeDownload: DownloadStatus?
    /// Bytes free on the file system that holds the models, as last read (nil where the system
    /// does not say).
    public private(set) var freeBytes: Int64?
    /// The size of each added model whose file is the app's own copy (in `imported/`), by id:
    /// deleting one of those deletes its file. An added file that lies elsewhere is only
    /// forgotten.
    public private(set) var copiedFileBytes: [String: Int64] = [:]

    @ObservationIgnored private let downloader: any ModelDownloading
    @ObservationIgnored let access: HubAccess
    @ObservationIgnored private var download: ModelDownload?
    @ObservationIgnored private var downloadTask: Task<Void, Never>?
    /// Told of every event of the download that is shown (the app model follows it: the
    /// target plate's message, loading the model once it is installed).
    @ObservationIgnored var onEvent: (@MainActor (DownloadEvent, CatalogEntry) async -> Void)?

    public init(store: ModelStore, downloader: any ModelDownloading, access: HubAccess) {
        self.store = store
        self.downloader = downloader
        self.access = access
    }

    public var catalog: ModelCatalog { store.catalog }

    /// Reads what is on disk again.
    public func refresh() {
        statuses = store.statuses()
        sideloaded = store.sideloadedModels()
        freeBytes = FileSystem.freeBytes(at: store.directories.models)
        var copies: [String: Int64] = [:]
        for model in sideloaded where isCopiedIntoApp(model) { copies[model.id] = store.fileSize(model.url) ?? 0 }
        copiedFileBytes = copies
    }

    /// The space the models take on this device: catalog models (partial downloads included)
    /// and the app's copies of added files.
    public var modelBytes: Int64 {
        statuses.reduce(0) { $0 + $1.bytesOnDisk } + copiedFileBytes.values.reduce(0, +)
    }

    /// What deleting the model with this id would free now.
    public func bytesFreed(byDeleting id: String) -> Int64 {
        statuses.first { $0.entry.id == id }?.bytesOnDisk ?? copiedFileBytes[id] ?? 0
    }

    /// Whether an added model's file is the app's own copy (made by an import into `imported/`).
    public func isCopiedIntoApp(_ model: SideloadedModel) -> Bool {
        store.canonicalPath(model.url).hasPrefix(store.canonicalPath(importedDirectory) + "/")
    }

    /// The state of a catalog model as last read.
    public func state(of entry: CatalogEntry) -> InstallState {
        statuses.first { $0.entry.id == entry.id }?.state ?? store.state(of: entry)
    }

    /// The model with this id, from the catalog or the added files.
    public func choice(id: String) -> ModelChoice? {
        if let entry = catalog.entry(id: id) { return .catalog(entry) }
        return sideloaded.first { $0.id == id }.map(ModelChoice.sideloaded) ?? store.choice(id: id)
    }

    /// Whether the model can be loaded now.
    public func isAvailable(_ choice: ModelChoice) -> Bool {
        switch choice {
        case .catalog(let entry): state(of: entry) == .installed
        case .sideloaded(let model): !model.isMissing
        }
    }

    /// The model launching would load: the chosen one if it is here, else the newest that is.
    public func usableModel(chosen id: String?) -> ModelChoice? {
        if let chosen = id.flatMap(choice(id:)), isAvailable(chosen) { return chosen }
        return newestOnDevice
    }

    /// The newest model on the device: the first installed in catalog order (the catalog lists
    /// the newest first), else the added file added last.
    public var newestOnDevice: ModelChoice? {
        statuses.first { $0.state == .installed }.map { .catalog($0.entry) }
            ?? sideloaded.filter { !$0.isMissing }.max { $0.addedAt < $1.addedAt }.map(ModelChoice.sideloaded)
    }

    // MARK: - Downloads

    /// Starts (or resumes) downloading a catalog model. Not public: it does not ask for the
    /// model licence; front ends go through `TranslatorModel` (`.download(id:)`,
    /// `downloadEvents`), which does.
    /// - Returns: its events, for the command line's progress bar.
    @discardableResult
    func startDownload(_ entry: CatalogEntry) -> AsyncThrowingStream<DownloadEvent, Error> {
        abandonDownload()
        let partial: Int64 = if case .partial(let bytes) = store.state(of: entry) { bytes } else { 0 }
        activeDownload = DownloadStatus(
            entry: entry, phase: .running(DownloadProgress(bytes: partial, total: store.expectedBytes(for: entry), bytesPerSecond: 0)))
        let handle = downloader.start(DownloadRequest(entry: entry, store: store, access: access))
        download = handle
        let (relay, continuation) = AsyncThrowingStream<DownloadEvent, Error>.makeStream(bufferingPolicy: .bufferingNewest(64))
        // The task reads the events to their end, even once this download is no longer the
        // one shown: its end is when the download has let go of its files.
        downloadTask = Task { [weak self] in
            do {
                for try await event in handle.events {
                    continuation.yield(event)
                    guard let self, self.download === handle else { continue }
                    self.apply(event, for: entry)
                    await self.onEvent?(event, entry)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
                guard let self, self.download === handle else { return }
                self.activeDownload?.phase = .failed(error.localizedDescription)
                self.refresh()
            }
        }
        return relay
    }

    private func apply(_ event: DownloadEvent, for entry: CatalogEntry) {
        switch event {
        case .started(let offset, let total):
            activeDownload?.phase = .running(DownloadProgress(bytes: offset, total: total, bytesPerSecond: 0))
        case .progress(let progress):
            activeDownload?.phase = .running(progress)
        case .stalled:
            break
        case .verifying:
            activeDownload?.phase = .verifying
        case .paused(let progress):
            activeDownload?.phase = .paused(progress)
            download = nil
            refresh()
        case .installed:
            activeDownload = nil
            download = nil
            refresh()
        }
    }

    /// Pauses the running download; the `.part` file is kept.
    public func pauseDownload() {
        download?.pause()
    }

    /// Pauses the download, forgets it, and returns once it has let go of its files.
    public func stopDownload() async {
        let task = abandonDownload()
        await task?.value
        refresh()
    }

    /// Pauses the download and forgets it, without waiting for it to end.
    @discardableResult
    private func abandonDownload() -> Task<Void, Never>? {
        let task = downloadTask
        download?.pause()
        download = nil
        downloadTask = nil
        activeDownload = nil
        return task
    }

    // MARK: - Changes

    /// Deletes a catalog model's files, or forgets an added one (and deletes its file where it
    /// is the app's own copy); a download of it in this process is stopped first and waited for.
    /// - Throws: `StoreError` (a download in another process holds the file, a file that cannot go).
    public func delete(_ choice: ModelChoice) async throws {
        if activeDownload?.entry.id == choice.id { await stopDownload() }
        defer { refresh() }
        switch choice {
        case .catalog(let entry): try store.delete(entry)
        case .sideloaded(let model):
            // The app's own copy goes with its entry; a file elsewhere is the person's and stays.
            if isCopiedIntoApp(model) { try store.remove(model.url) }
            try store.removeSideloaded(id: model.id)
        }
    }

    /// Adds a model file from elsewhere on the device, once: copies it into the app's
    /// `imported/` directory first where asked (under a temporary name, then renamed, so an
    /// interrupted import leaves no partial model), lets `check` prove it can translate, and
    /// adds it. On any failure the copy is removed and the list is as it was.
    /// - Parameter check: throws for a file the engine cannot run (`EngineLoading.check`).
    /// - Throws: `StoreError.notAModelFile`, the copy's error, or `check`'s.
    @discardableResult
    public func importModel(_ request: ModelImport, check: @Sendable (String) async throws -> Void) async throws -> SideloadedModel {
        guard FileManager.default.fileExists(atPath: request.path) else {
            throw StoreError.notAModelFile(request.path, reason: "there is no such file")
        }
        let path = request.copiesIntoApp ? try await copyIntoApp(request.path, name: request.name) : request.path
        do {
            try await check(path)
            defer { refresh() }
            let name = request.name ?? (request.copiesIntoApp ? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent : nil)
            return try store.addSideloaded(path: path, name: name, format: request.format)
        } catch {
            if request.copiesIntoApp { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    /// The directory imported copies live in.
    public var importedDirectory: URL { store.directories.home.appendingPathComponent("imported", isDirectory: true) }

    /// Copies the file into `imported/` under a name of its own: the file's (or `name`), with a
    /// number added where another import has it, so no model already listed is replaced.
    private func copyIntoApp(_ path: String, name: String?) async throws -> String {
        try store.requireHome()
        let directory = importedDirectory
        return try await Task.detached(priority: .userInitiated) {
            let source = URL(fileURLWithPath: path)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A descriptor lent by the system (`/proc/self/fd/N` on Android) has no useful name.
            var stem = source.pathExtension.lowercased() == "gguf" ? source.deletingPathExtension().lastPathComponent : "imported"
            if let name, !name.isEmpty { stem = name }
            stem = String(stem.map { $0 == "/" || $0 == "\0" ? "-" : $0 }.prefix(120))
            if stem.hasPrefix(".") { stem = "_" + stem }
            var destination = directory.appendingPathComponent(stem + ".gguf")
            var number = 2
            while FileManager.default.fileExists(atPath: destination.path) {
                destination = directory.appendingPathComponent("\(stem)-\(number).gguf")
                number += 1
            }
            let partial = directory.appendingPathComponent(".\(UUID().uuidString).part")
            do {
                try FileManager.default.copyItem(at: source, to: partial)
                try FileManager.default.moveItem(at: partial, to: destination)
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw StoreError.notAModelFile(path, reason: "it could not be copied into the app (\(error.localizedDescription))")
            }
            return destination.path
        }.value
    }
}
