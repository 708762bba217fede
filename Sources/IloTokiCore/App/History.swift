import Foundation

/// A finished translation.
public struct HistoryEntry: Codable, Identifiable, Equatable, Sendable {
    public let id: UUID
    public let direction: TranslationDirection
    public let source: String
    public let result: String
    /// The model that translated it.
    public let modelID: String
    public let date: Date
    /// *olin*: a favourite. Favourites survive "clear all" and the cap.
    public var olin: Bool

    public init(
        id: UUID = UUID(), direction: TranslationDirection, source: String, result: String, modelID: String,
        date: Date = Date(), olin: Bool = false
    ) {
        self.id = id
        self.direction = direction
        self.source = source
        self.result = result
        self.modelID = modelID
        self.date = date
        self.olin = olin
    }
}

/// The translation history: newest first, at most `cap` entries that are not favourites.
public struct History: Equatable, Sendable {
    public static let cap = 200

    public private(set) var entries: [HistoryEntry]

    public init(entries: [HistoryEntry] = []) {
        self.entries = entries.sorted { $0.date > $1.date }
        trim()
    }

    /// Adds a finished translation at the top.
    public mutating func add(_ entry: HistoryEntry) {
        entries.insert(entry, at: 0)
        trim()
    }

    /// Marks or unmarks a favourite.
    public mutating func setOlin(_ olin: Bool, for id: UUID) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        entries[index].olin = olin
    }

    public mutating func remove(_ id: UUID) {
        entries.removeAll { $0.id == id }
    }

    /// "Clear all": everything but the favourites.
    public mutating func clear() {
        entries.removeAll { !$0.olin }
    }

    public var favourites: [HistoryEntry] { entries.filter(\.olin) }

    /// Drops the oldest entries that are not favourites beyond the cap.
    private mutating func trim() {
        var others = entries.filter { !$0.olin }.count
        guard others > Self.cap else { return }
        var index = entries.count - 1
        while others > Self.cap, index >= 0 {
            if !entries[index].olin {
                entries.remove(at: index)
                others -= 1
            }
            index -= 1
        }
    }
}

/// Reads and writes `history.json` (user-only permissions, atomic writes).
public struct HistoryStore: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// The history, or an empty one; a damaged file is moved aside and reported in `problem`.
    public func load() -> (history: History, problem: String?) {
        let read = JSONFile.read([HistoryEntry].self, from: url)
        return (History(entries: read.value ?? []), read.problem)
    }

    public func save(_ history: History) throws {
        try JSONFile.write(history.entries, to: url)
    }
}
