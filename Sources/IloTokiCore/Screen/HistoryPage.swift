import Foundation

/// The history as plain values: the filter, what to say when there is nothing, and a row per
/// translation with its marks.
public struct HistoryPage: Equatable, Sendable, Encodable {
    public struct Row: Equatable, Sendable, Identifiable, Encodable {
        public var id: UUID
        /// "toki pona → English · 30/11/2026, 08:50"
        public var meta: String
        public var source: String
        public var result: String
        public var isOlin: Bool
        /// What the olin button says to a screen reader.
        public var olinLabel: String
        public var sourceInSitelenPona: Bool
        public var resultInSitelenPona: Bool
        public var entry: HistoryEntry
        /// "en→tok  I love you → mi olin e sina": the row as one line (tests, reports).
        public var line: String { "\(entry.direction)  \(source) → \(result)" }
    }

    public var allTitle: String
    public var olinTitle: String
    public var clearTitle: String
    public var onlyOlin: Bool
    /// Said above the rows: history is switched off.
    public var note: String?
    /// Said instead of rows.
    public var empty: String?
    public var rows: [Row]
}

extension HistoryPage {
    /// - Parameter onlyOlin: show the favourites only (the page's filter).
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings, onlyOlin: Bool) {
        let format = Formatting(strings)
        let entries = onlyOlin ? model.history.favourites : model.history.entries
        let sitelen = model.tokiPonaScript == .sitelenPona
        self.init(
            allTitle: strings[.history], olinTitle: "olin", clearTitle: strings[.clearHistory], onlyOlin: onlyOlin,
            note: model.settings.keepHistory ? nil : strings[.historyOff],
            empty: entries.isEmpty ? strings[.noHistory] : nil,
            rows: entries.map { entry in
                Row(
                    id: entry.id,
                    meta: "\(entry.direction.source.endonym) → \(entry.direction.target.endonym) · \(format.dateTime(entry.date))",
                    source: entry.source, result: entry.result, isOlin: entry.olin,
                    olinLabel: entry.olin ? strings[.unOlin] : strings[.olin],
                    sourceInSitelenPona: sitelen && entry.direction.source == .tokiPona,
                    resultInSitelenPona: sitelen && entry.direction.target == .tokiPona, entry: entry)
            })
    }
}
