/// When the phones tick as a translation's words land: once for a piece that adds text, at
/// most once per `minimumInterval`, so a fast model does not make the phone buzz.
public struct HapticTicker: Sendable, Equatable {
    public static let minimumInterval: Duration = .milliseconds(60)

    /// Ticks so far.
    public private(set) var ticks = 0
    private var lastTick: Duration?

    public init() {}

    /// A piece landed at `time` (on any steady clock); returns whether it ticks.
    @discardableResult
    public mutating func landed(at time: Duration) -> Bool {
        if let lastTick, time - lastTick < Self.minimumInterval { return false }
        lastTick = time
        ticks += 1
        return true
    }
}
