import Foundation

/// A model the user can translate with: a catalog download or a sideloaded file.
public enum ModelChoice: Identifiable, Hashable, Sendable {
    case catalog(CatalogEntry)
    case sideloaded(SideloadedModel)

    public var id: String {
        switch self {
        case .catalog(let entry): entry.id
        case .sideloaded(let model): model.id
        }
    }

    public var displayName: String {
        switch self {
        case .catalog(let entry): entry.displayName
        case .sideloaded(let model): model.name
        }
    }

    /// The prompt format the model was fine-tuned on.
    public var format: PromptFormat {
        switch self {
        case .catalog(let entry): entry.format
        case .sideloaded(let model): model.format
        }
    }

    public var isDeprecated: Bool {
        if case .catalog(let entry) = self { return entry.deprecated }
        return false
    }

    /// The catalog entry, for a catalog model.
    public var catalogEntry: CatalogEntry? {
        if case .catalog(let entry) = self { return entry }
        return nil
    }
}

extension ModelStore {
    /// Every model to choose from: the catalog (installed or not), then sideloaded files.
    public func choices() -> [ModelChoice] {
        catalog.entries.map(ModelChoice.catalog) + sideloadedModels().map(ModelChoice.sideloaded)
    }

    /// The model with this id, from the catalog or the sideloaded list.
    public func choice(id: String) -> ModelChoice? {
        if let entry = catalog.entry(id: id) { return .catalog(entry) }
        return sideloadedModels().first { $0.id == id }.map(ModelChoice.sideloaded)
    }

    /// Where the model's file is.
    public func fileURL(for choice: ModelChoice) -> URL {
        switch choice {
        case .catalog(let entry): fileURL(for: entry)
        case .sideloaded(let model): model.url
        }
    }

    /// Whether the model can be loaded now: a complete catalog file, or a sideloaded file that is there.
    public func isAvailable(_ choice: ModelChoice) -> Bool {
        switch choice {
        case .catalog(let entry): state(of: entry) == .installed
        case .sideloaded(let model): !model.isMissing
        }
    }

    /// The file's size on disk.
    public func bytes(of choice: ModelChoice) -> Int64? {
        switch choice {
        case .catalog(let entry): fileSize(fileURL(for: entry)) ?? expectedBytes(for: entry)
        case .sideloaded(let model):
            (try? FileManager.default.attributesOfItem(atPath: model.path)[.size] as? NSNumber)?.int64Value
        }
    }
}
