import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C, handled instead of killing the process: a translation stops, a download pauses
/// and keeps its `.part` file.
final class Interrupts: @unchecked Sendable {
    static let shared = Interrupts()

    private let handler = Mutex<(@Sendable () -> Void)?>(nil)
    private let count = Atomic<Int>(0)
    // Set once in init and never touched again; kept so the source stays alive.
    private let source: DispatchSourceSignal

    private init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "ilotoki.interrupts"))
        source.setEventHandler { [unowned self] in fire() }
        source.resume()
    }

    private func fire() {
        count.add(1, ordering: .sequentiallyConsistent)
        handler.withLock { $0 }?()
    }

    /// How many times Ctrl-C was pressed so far.
    var received: Int { count.load(ordering: .sequentiallyConsistent) }

    /// Runs `body` with `onInterrupt` called on Ctrl-C; the previous handler comes back after.
    @MainActor
    func whileRunning<T>(onInterrupt: @escaping @Sendable () -> Void, _ body: () async throws -> T) async rethrows -> T {
        let previous = handler.withLock { current -> (@Sendable () -> Void)? in
            defer { current = onInterrupt }
            return current
        }
        defer { handler.withLock { $0 = previous } }
        return try await body()
    }
}
