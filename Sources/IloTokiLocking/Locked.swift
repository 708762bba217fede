import Foundation

/// A value behind a lock: what `Synchronization.Mutex` and `Atomic` give, on every platform the
/// app supports. The standard library's types need iOS 18 and macOS 15; the app runs from
/// iOS 17 and macOS 14, the first releases with Observation.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) {
        stored = value
    }

    /// Runs `body` with the value, alone: no other `withLock` on this object runs meanwhile.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// The value now.
    public var value: Value { withLock { $0 } }

    /// Sets the value.
    public func store(_ value: Value) {
        withLock { $0 = value }
    }

    /// Sets the value and returns the one it replaced.
    public func exchange(_ value: Value) -> Value {
        withLock { current in
            let previous = current
            current = value
            return previous
        }
    }
}
