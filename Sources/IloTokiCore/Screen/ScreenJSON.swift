import Foundation

/// The screen values as JSON, for a front end that is not written in Swift (the Android app
/// reads them through the JNI bridge). Keys are the Swift property names; dates are ISO 8601.
public enum ScreenJSON {
    public static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Every UI string in `strings`' language, keyed by `UIText`'s case names, and each
    /// language's own name under "language.<code>" (what a language chooser lists).
    public static func strings(_ strings: UIStrings) throws -> String {
        var table = Dictionary(uniqueKeysWithValues: UIText.allCases.map { ($0.rawValue, strings[$0]) })
        for language in Language.allCases { table["language.\(language.code)"] = language.endonym }
        return try encode(table)
    }
}
