import Foundation
import IloTokiCore

/// How much of the file one request asks for.
public enum DownloadWindow {
    /// Doubles the window after one that arrived at under 32 MiB/s (nothing piles up on a
    /// slow network, and fewer requests save round trips), up to 16 × `base`; back to `base`
    /// after a fast one.
    public static func next(after window: Int64, moved: Int64, in elapsed: Duration, base: Int64) -> Int64 {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        guard moved > 0, seconds > 0 else { return window }
        let rate = Double(moved) / seconds
        if rate < Double(32 << 20) { return min(window * 2, base * 16) }
        return base
    }
}
