import Foundation

/// The history as plain values: the filter, what to say when there is nothing, and the
/// translations by day (today, yesterday, then each day by its date in the UI's language),
/// newest first, a row each with its marks.
public struct HistoryPage: Equatable, Sendable, Encodable {
    /// One day of translations, under its heading.
    public struct Day: Equatable, Sendable, Identifiable, Encodable {
        /// The day, "2026-11-30" (in the device's time zone).
        public var id: String
        /// "Today", "Yesterday", "28 November 2026".
        public var title: String
        public var rows: [Row]
    }

    public struct Row: Equatable, Sendable, Identifiable, Encodable {
        public var id: UUID
        /// "toki pona → English · 08:50" (the day is its heading)
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
    /// Whether the page shows the favourites only (the model's `historyShowsOnlyOlin`; the
    /// filter's buttons perform `.filterHistory(onlyOlin:)`).
    public var onlyOlin: Bool
    /// Said above the rows: history is switched off.
    public var note: String?
    /// Said instead of rows.
    public var empty: String?
    public var days: [Day]

    /// Every row, newest first.
    public var rows: [Row] { days.flatMap(\.rows) }
}

extension HistoryPage {
    /// - Parameters:
    ///   - now: what "today" is (tests pass a fixed one).
    ///   - calendar: where the days begin and end: the device's.
    @MainActor
    public init(model: TranslatorModel, strings: UIStrings, now: Date = Date(), calendar: Calendar = .current) {
        let format = Formatting(strings)
        let onlyOlin = model.historyShowsOnlyOlin
        let entries = onlyOlin ? model.history.favourites : model.history.entries
        let sitelen = model.tokiPonaScript == .sitelenPona
        let today = calendar.startOfDay(for: now)
        let yesterday = calendar.date(byAdding: .day, value: -1, to: today) ?? today
        var days: [Day] = []
        for entry in entries {
            let start = calendar.startOfDay(for: entry.date)
            let parts = calendar.dateComponents([.year, .month, .day], from: start)
            let id = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            let row = Row(
                id: entry.id,
                meta:
                    "\(entry.direction.source.endonym) → \(entry.direction.target.endonym) · \(format.time(entry.date, timeZone: calendar.timeZone))",
                source: entry.source, result: entry.result, isOlin: entry.olin,
                olinLabel: entry.olin ? strings[.unOlin] : strings[.olin],
                sourceInSitelenPona: sitelen && entry.direction.source == .tokiPona,
                resultInSitelenPona: sitelen && entry.direction.target == .tokiPona, entry: entry)
            // Entries come newest first; one merged from another process may not, and its
            // day still has one heading.
            if let index = days.lastIndex(where: { $0.id == id }) {
                days[index].rows.append(row)
            } else {
                let title =
                    start == today
                    ? strings[.today] : start == yesterday ? strings[.yesterday] : format.day(start, timeZone: calendar.timeZone)
                days.append(Day(id: id, title: title, rows: [row]))
            }
        }
        self.init(
            allTitle: strings[.history], olinTitle: "olin", clearTitle: strings[.clearHistory], onlyOlin: onlyOlin,
            note: model.settings.keepHistory ? nil : strings[.historyOff],
            empty: entries.isEmpty ? strings[.noHistory] : nil, days: days)
    }
}
