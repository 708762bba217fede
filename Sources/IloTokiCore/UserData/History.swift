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

    /// Adds a finished translation: at the top, or further down when another process
    /// recorded a newer one first (the history stays newest first).
    public mutating func add(_ entry: HistoryEntry) {
        guard !entries.contains(where: { $0.id == entry.id }) else { return }
        let index = entries.firstIndex { $0.date <= entry.date } ?? entries.endIndex
        entries.insert(entry, at: index)
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

/// Reads and changes `history.json` (user-only permissions, atomic writes), safely shared
/// by every process on the device: a change is applied to what is on disk now, under a lock,
/// so two processes translating at once both keep their entries.
public struct HistoryStore: Sendable {
    public let url: URL
    var file: SharedFile<History>

    public init(url: URL) {
        self.url = url
        file = SharedFile(
            url: url,
            decode: { data in
                // One damaged entry does not take the others with it: they are kept, and the
                // file is moved aside so the damaged one can still be recovered.
                let entries = try JSONFile.decoder.decode([Lenient<HistoryEntry>].self, from: data)
                let readable = entries.compactMap(\.element)
                let unreadable = entries.count - readable.count
                return .init(
                    value: History(entries: readable),
                    lost: unreadable == 0 ? nil : "\(unreadable) of its \(entries.count) entries could not be read")
            },
            encode: { try JSONFile.encoder.encode($0.entries) })
    }

    /// The history, or an empty one; a damaged file is moved aside and reported in `problem`.
    public func load() -> (history: History, problem: String?) {
        let contents = file.read()
        return (contents.value ?? History(), contents.problem)
    }

    /// Applies `change` to the history on disk now, and writes it back.
    /// - Returns: the history as written (this process's change merged with every other's),
    ///   and a problem found on the way (a damaged file set aside).
    /// - Throws: `StoreError` when the file cannot be written, or is damaged and cannot be kept.
    @discardableResult
    public func update(_ change: (inout History) -> Void) throws -> (history: History, problem: String?) {
        let result = try file.change(from: History(), change)
        return (result.value, result.problem)
    }
}
