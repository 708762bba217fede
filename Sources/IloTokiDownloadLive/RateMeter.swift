import Foundation
import IloTokiCore

/// The transfer rate over the last few seconds, and when to report it. Called for every
/// chunk, so it does constant work per call: a sample is kept only every 100 ms.
struct RateMeter {
    private var samples: [(time: ContinuousClock.Instant, bytes: Int64)] = []
    private var lastReport: ContinuousClock.Instant?
    private var latest: (time: ContinuousClock.Instant, bytes: Int64)?
    private let clock = ContinuousClock()
    private static let interval = Duration.milliseconds(100)
    private static let window = 30  // samples: three seconds

    mutating func reset(bytes: Int64) {
        let now = clock.now
        samples = [(now, bytes)]
        latest = (now, bytes)
    }

    mutating func add(bytes: Int64) {
        let now = clock.now
        latest = (now, bytes)
        if let last = samples.last, now - last.time < Self.interval { return }
        samples.append((now, bytes))
        if samples.count > Self.window { samples.removeFirst(samples.count - Self.window) }
    }

    private var lastReportedBytes: Int64 = -1

    /// At most ten reports a second; `evenIfRecent` reports any bytes not reported yet.
    mutating func shouldReport(bytes: Int64, evenIfRecent: Bool) -> Bool {
        let now = clock.now
        if evenIfRecent {
            guard bytes != lastReportedBytes else { return false }
        } else if let last = lastReport, now - last < Self.interval {
            return false
        }
        lastReport = now
        lastReportedBytes = bytes
        return true
    }

    var bytesPerSecond: Double {
        guard let first = samples.first, let latest, latest.time > first.time else { return 0 }
        let elapsed = latest.time - first.time
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return seconds > 0 ? Double(latest.bytes - first.bytes) / seconds : 0
    }
}
