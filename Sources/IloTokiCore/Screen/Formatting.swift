import Foundation

/// Numbers, dates and sizes as the front ends show them, in one place per language.
public struct Formatting: Sendable {
    public let language: InterfaceLanguage

    public init(language: InterfaceLanguage) {
        self.language = language
    }

    public init(_ strings: UIStrings) {
        self.init(language: strings.language)
    }

    /// 0…1 as a whole per cent, rounded down (a download at 99.9 % is not "100%" yet).
    public func percent(_ fraction: Double?) -> String {
        let value = Int(((fraction ?? 0) * 100).rounded(.down))
        // Russian sets a space before the sign; the other three do not.
        return language == .russian ? "\(value)\u{00A0}%" : "\(value)%"
    }

    /// A size: "1.39 GB" (see `ByteSize`).
    public func size(_ bytes: Int64) -> String { ByteSize.text(bytes) }

    /// A catalog model's size: exact once known, else its estimate ("≈ 1.39 GB").
    public func size(of entry: CatalogEntry, exact: Int64?) -> String { entry.sizeText(exact: exact) }

    /// A date and time, short, as people of the language write it.
    func dateTime(_ date: Date) -> String {
        format(date, date: .short, time: .short, timeZone: .current)
    }

    /// A time of day, short: "08:50".
    public func time(_ date: Date, timeZone: TimeZone = .current) -> String {
        format(date, date: .none, time: .short, timeZone: timeZone)
    }

    /// A day, in words, as people of the language write it: "28 November 2026".
    public func day(_ date: Date, timeZone: TimeZone = .current) -> String {
        format(date, date: .long, time: .none, timeZone: timeZone)
    }

    private func format(_ value: Date, date: DateFormatter.Style, time: DateFormatter.Style, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: locale)
        formatter.timeZone = timeZone
        formatter.dateStyle = date
        formatter.timeStyle = time
        return formatter.string(from: value)
    }

    /// A duration in milliseconds: "830 ms", "2.4 s".
    public func duration(milliseconds: Double) -> String {
        milliseconds < 1000 ? "\(Int(milliseconds.rounded())) ms" : String(format: "%.1f s", milliseconds / 1000)
    }

    private var locale: String {
        switch language {
        case .english, .tokiPona: "en_GB"
        case .russian: "ru_RU"
        case .vietnamese: "vi_VN"
        }
    }
}
