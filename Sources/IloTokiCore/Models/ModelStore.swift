import Foundation

/// What is on disk for a catalog model.
public enum InstallState: Equatable, Sendable {
    /// Nothing: no file and no partial download.
    case notInstalled
    /// A partial download (`.part`) of this many bytes, and no complete file.
    case partial(bytes: Int64)
    /// The complete file, of the right size.
    case installed
    /// A file of the wrong size where the model should be: delete and download again.
    case damaged(bytes: Int64)

    public var isInstalled: Bool { self == .installed }
}

/// A catalog model and its state on disk.
public struct ModelStatus: Equatable, Sendable {
    public let entry: CatalogEntry
    public let state: InstallState
    /// Bytes the model takes on disk (complete file and partial download together).
    public let bytesOnDisk: Int64
    /// The file's exact size: the catalog's, or the Hub's once a download resolved it.
    public let expectedBytes: Int64?

    public init(entry: CatalogEntry, state: InstallState, bytesOnDisk: Int64, expectedBytes: Int64?) {
        self.entry = entry
        self.state = state
        self.bytesOnDisk = bytesOnDisk
        self.expectedBytes = expectedBytes
    }

    /// The part of the file a partial download holds, when the size is known.
    public var fractionDownloaded: Double? {
        guard case .partial(let bytes) = state, let total = expectedBytes, total > 0 else { return nil }
        return Double(bytes) / Double(total)
    }
}

/// The models on this device: catalog downloads in `models/`, and sideloaded files anywhere.
public final class ModelStore: Sendable {
    public let directories: AppDirectories
    public let catalog: ModelCatalog

    /// Why the home directory cannot be used, when it cannot: then nothing can be downloaded,
    /// added or kept (settings, history), but a model file from elsewhere still translates.
    public let homeProblem: StoreError?
    private let sideloaded: SharedFile<[SideloadedModel]>

    /// Opens the store, creating its missing directories (user-only permissions). A home that
    /// cannot be created is not fatal: it is reported in `homeProblem`.
    public init(directories: AppDirectories, catalog: ModelCatalog = .standard) {
        self.directories = directories
        self.catalog = catalog
        sideloaded = SharedFile(url: directories.sideloadedFile)
        do {
            try directories.create()
            homeProblem = nil
        } catch let error as StoreError {
            homeProblem = error
        } catch {
            homeProblem = .cannotCreateDirectory(directories.home.path, reason: error.localizedDescription)
        }
    }

    /// Throws `homeProblem` when the home directory cannot be used.
    public func requireHome() throws {
        if let homeProblem { throw homeProblem }
    }

    // MARK: - Catalog models

    /// Where the complete file of `entry` lives.
    public func fileURL(for entry: CatalogEntry) -> URL {
        directories.models.appendingPathComponent(entry.fileName)
    }

    /// Where the download of `entry` is written until it is complete.
    public func partURL(for entry: CatalogEntry) -> URL {
        directories.models.appendingPathComponent(entry.fileName + ".part")
    }

    /// The sha256 recorded when a model was installed: `<file>.sha256` beside it.
    public static func sha256RecordURL(for file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".sha256")
    }

    /// Which file of a Hub repository a model is, as the Hub described it when its download
    /// started: `<file>.source` beside it.
    public static func sourceRecordURL(for file: URL) -> URL {
        file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".source")
    }

    /// The Hub file `entry` was resolved to, once its download has started.
    public func resolvedFile(for entry: CatalogEntry) -> ResolvedFile? {
        guard entry.repository != nil else { return nil }
        return JSONFile.read(ResolvedFile.self, from: Self.sourceRecordURL(for: fileURL(for: entry))).value
    }

    /// `entry`'s exact size: the catalog's, or the Hub's once a download resolved it.
    public func expectedBytes(for entry: CatalogEntry) -> Int64? {
        entry.bytes ?? resolvedFile(for: entry)?.bytes
    }

    /// What a download keeps about its `.part` (ETag, size): `<file>.part.meta` beside it.
    public static func partMetadataURL(for part: URL) -> URL {
        part.deletingLastPathComponent().appendingPathComponent(part.lastPathComponent + ".meta")
    }

    public func state(of entry: CatalogEntry) -> InstallState {
        state(of: entry, expected: expectedBytes(for: entry))
    }

    /// `entry`'s state, given its exact size as far as it is known.
    private func state(of entry: CatalogEntry, expected: Int64?) -> InstallState {
        if let size = fileSize(fileURL(for: entry)) {
            // A Hub file is only ever renamed into place once verified against its listing.
            guard let expected else { return size > 0 ? .installed : .damaged(bytes: size) }
            return size == expected ? .installed : .damaged(bytes: size)
        }
        if let size = fileSize(partURL(for: entry)) { return .partial(bytes: size) }
        return .notInstalled
    }

    /// Every catalog model with its state, in catalog order.
    public func statuses() -> [ModelStatus] {
        catalog.entries.map { entry in
            let expected = expectedBytes(for: entry)
            return ModelStatus(
                entry: entry, state: state(of: entry, expected: expected), bytesOnDisk: bytesOnDisk(for: entry), expectedBytes: expected)
        }
    }

    /// Catalog models whose complete file is here, in catalog order.
    func installedEntries() -> [CatalogEntry] {
        catalog.entries.filter { state(of: $0) == .installed }
    }

    /// Bytes `entry` takes on disk: the file and any partial download.
    public func bytesOnDisk(for entry: CatalogEntry) -> Int64 {
        (fileSize(fileURL(for: entry)) ?? 0) + (fileSize(partURL(for: entry)) ?? 0)
    }

    /// The sha256 recorded when `entry` was installed, if any.
    public func recordedSHA256(for entry: CatalogEntry) -> String? {
        let text = try? String(contentsOf: Self.sha256RecordURL(for: fileURL(for: entry)), encoding: .utf8)
        return text?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// Removes `entry`'s file, its partial download and what is recorded about them.
    ///
    /// A download writing the `.part` (in this process or another) holds its lock; the delete
    /// takes that same lock first and is refused while the download runs, so it never pulls
    /// the file out from under the downloader.
    /// - Throws: `StoreError.downloadInProgress` while the model downloads,
    ///   `StoreError.cannotDelete` naming the file that could not go.
    public func delete(_ entry: CatalogEntry) throws {
        let file = fileURL(for: entry)
        let part = partURL(for: entry)
        var lock: FileLock?
        if FileManager.default.fileExists(atPath: part.path) {
            switch Result(catching: { try FileLock.acquire(part, create: false) }) {
            case .success(nil): throw StoreError.downloadInProgress(model: entry.displayName)
            case .success(let held): lock = held
            case .failure: break  // the .part went away meanwhile, or cannot be opened: removing it below says which
            }
        }
        defer { lock?.release() }
        for url in [file, Self.sha256RecordURL(for: file), Self.sourceRecordURL(for: file), part, Self.partMetadataURL(for: part)] {
            try remove(url)
        }
    }

    // MARK: - Orphan sweep

    /// Removes model files in `models/` that nothing claims, and returns them.
    ///
    /// Retiring a model means deleting its catalog entry; this is what then frees its
    /// gigabytes. Only `*.gguf` and `*.gguf.part` files (and the record kept beside each)
    /// are ever removed: settings, history and anything else a person put there stay. A file
    /// named with `--model`, a sideloaded file and a `.part` a running download holds locked
    /// are kept too.
    /// - Parameter keeping: files to keep whatever their name (e.g. the one passed with `--model`).
    @discardableResult
    public func sweepOrphans(keeping: [URL] = []) -> [URL] {
        let kept = Set((keeping + sideloadedModels().map(\.url)).map(canonicalPath))
        let claimed = Set(catalog.entries.flatMap { [$0.fileName, $0.fileName + ".part"] })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directories.models.path)) ?? []
        var removed: [URL] = []
        for name in names.sorted() where name.hasSuffix(".gguf") || name.hasSuffix(".gguf.part") {
            let url = directories.models.appendingPathComponent(name)
            guard !claimed.contains(name), !kept.contains(canonicalPath(url)), isRegularFile(url) else { continue }
            if name.hasSuffix(".part"), FileLock.isLocked(url) { continue }
            guard (try? remove(url)) != nil else { continue }
            if name.hasSuffix(".part") {
                try? remove(Self.partMetadataURL(for: url))
                try? remove(Self.sourceRecordURL(for: url.deletingPathExtension()))
            } else {
                try? remove(Self.sha256RecordURL(for: url))
                try? remove(Self.sourceRecordURL(for: url))
            }
            removed.append(url)
        }
        return removed
    }

    // MARK: - Sideloaded models

    /// The models added from elsewhere, in the order they were added. A model whose file has
    /// gone is still listed (with `isMissing`), so the user learns what happened.
    public func sideloadedModels() -> [SideloadedModel] {
        sideloaded.read().value ?? []
    }

    /// Adds a GGUF file from anywhere on the device.
    /// - Parameters:
    ///   - path: the file; it stays where it is.
    ///   - name: the name to show; the file name without `.gguf` if `nil`.
    ///   - format: the prompt format the model answers to.
    /// - Throws: `StoreError.notAModelFile` if the file is missing or not GGUF.
    @discardableResult
    public func addSideloaded(path: String, name: String? = nil, format: PromptFormat) throws -> SideloadedModel {
        let url = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath()
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw StoreError.notAModelFile(path, reason: "there is no such file")
        }
        guard isRegularFile(url) else { throw StoreError.notAModelFile(path, reason: "it is not a regular file") }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw StoreError.notAModelFile(path, reason: "it cannot be read")
        }
        let magic = (try? handle.read(upToCount: 4)) ?? Data()
        try? handle.close()
        guard magic == Data("GGUF".utf8) else { throw StoreError.notAModelFile(path, reason: "it is not a GGUF file") }

        try requireHome()
        let fileName = url.deletingPathExtension().lastPathComponent
        let model = SideloadedModel(
            id: SideloadedModel.idPrefix + UUID().uuidString.lowercased(),
            name: (name?.isEmpty == false ? name : nil) ?? fileName,
            path: url.path,
            format: format,
            addedAt: Date()
        )
        var added = model
        try sideloaded.change(from: []) { models in
            if let existing = models.first(where: { $0.path == url.path }) {
                added = existing
            } else {
                models.append(model)
            }
        }
        return added
    }

    /// Forgets a sideloaded model (its file is not touched).
    public func removeSideloaded(id: String) throws {
        var found = false
        try sideloaded.change(from: []) { models in
            found = models.contains { $0.id == id }
            models.removeAll { $0.id == id }
        }
        guard found else { throw StoreError.unknownModel(id) }
    }

    // MARK: - Files

    /// The size of a regular file, or nil (missing, a directory, unreadable).
    func fileSize(_ url: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    private func isRegularFile(_ url: URL) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType == .typeRegular
    }

    /// Deletes a file; one already gone is no error.
    /// - Throws: `StoreError.cannotDelete` naming the file.
    func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch CocoaError.fileNoSuchFile {
            return
        } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSFileNoSuchFileError {
            return
        } catch {
            guard FileManager.default.fileExists(atPath: url.path) else { return }
            throw StoreError.cannotDelete(url.path, reason: error.localizedDescription)
        }
    }

    func canonicalPath(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }
}
