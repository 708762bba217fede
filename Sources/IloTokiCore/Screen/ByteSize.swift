/// Sizes as people read them, the same in every front end: decimal units as storage is sold
/// ("1.39 GB", "3.1 MB", "16 KB"), and "0 KB" for nothing (never "Zero KB").
public enum ByteSize {
    /// `bytes` in the largest unit that keeps the number readable.
    public static func text(_ bytes: Int64) -> String {
        if bytes == 0 { return "0 KB" }
        if bytes < 0 { return "-" + text(-bytes) }
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units: [(String, Double, Int)] = [("KB", 1e3, 0), ("MB", 1e6, 1), ("GB", 1e9, 2), ("TB", 1e12, 2)]
        var chosen = units[0]
        for unit in units where Double(bytes) >= unit.1 { chosen = unit }
        // Rounding may carry into the next unit (999.96 KB is 1 MB).
        let value = Double(bytes) / chosen.1
        if let next = units.first(where: { $0.1 == chosen.1 * 1000 }), rounded(value, chosen.2) >= 1000 {
            return number(Double(bytes) / next.1, next.2) + " " + next.0
        }
        return number(value, chosen.2) + " " + chosen.0
    }

    /// `bytes` a second, for download rates: "12.4 MB/s".
    public static func rate(_ bytesPerSecond: Double) -> String {
        text(Int64(bytesPerSecond.isFinite ? max(0, bytesPerSecond) : 0)) + "/s"
    }

    private static func rounded(_ value: Double, _ decimals: Int) -> Double {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        return (value * scale).rounded() / scale
    }

    /// The number with at most `decimals` decimals, trailing zeros dropped ("1.4", "2", "1.39").
    private static func number(_ value: Double, _ decimals: Int) -> String {
        let rounded = rounded(value, decimals)
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        if let dot = text.firstIndex(of: "."), text.distance(from: dot, to: text.endIndex) - 1 > decimals {
            text = String(text[...text.index(dot, offsetBy: decimals)])
        }
        return text
    }
}

extension CatalogEntry {
    /// The download's size, e.g. "1.39 GB": exact when `exact` or the catalog knows it, else
    /// the estimate marked as one ("≈ 1.39 GB"), else "?".
    public func sizeText(exact: Int64? = nil) -> String {
        if let bytes = exact ?? bytes { return ByteSize.text(bytes) }
        return approximateBytes.map { "≈\u{00A0}" + ByteSize.text($0) } ?? "?"
    }
}
