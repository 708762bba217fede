import Dispatch
import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C, and the requests to end that a terminal or a service manager sends (SIGTERM,
/// SIGHUP), handled instead of killing the process: a translation stops, a download pauses
/// and keeps its `.part` file, what was finished is kept, and the process ends with
/// 128 + the signal's number (130 for Ctrl-C).
final class Interrupts: @unchecked Sendable {
    static let shared = Interrupts()

    /// The signals handled.
    static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    private let handlers = Locked<[(@Sendable (Int32) -> Void)]>([])
    private let last = Locked<Int32>(0)
    private let count = Locked(0)
    // Set once in init and never touched again (so the class may be shared); kept so the sources stay alive.
    private let sources: [any DispatchSourceSignal]

    private init() {
        let queue = DispatchQueue(label: "ilotoki.interrupts")
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (number, source) in zip(Self.signals, sources) {
            source.setEventHandler { [unowned self] in fire(number) }
            source.resume()
        }
    }

    /// Starts listening (the first use of `shared` does): until then the signals keep their
    /// default effect, so the command line installs it before any work begins.
    static func install() { _ = shared }

    private func fire(_ number: Int32) {
        last.store(number)
        count.withLock { $0 += 1 }
        handlers.withLock { $0.last }?(number)
    }

    /// How many signals arrived so far.
    var received: Int { count.value }

    /// The last signal that came, or 0 if none did.
    var lastSignal: Int32 { last.value }

    /// The exit status for the last signal: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP.
    var exitStatus: Int32 {
        let number = last.value
        return 128 + (number == 0 ? SIGINT : number)
    }

    /// Runs `body` with `onInterrupt` called on a signal; the previous handler comes back after.
    @MainActor
    func whileRunning<T>(onInterrupt: @escaping @Sendable (Int32) -> Void, _ body: () async throws -> T) async rethrows -> T {
        handlers.withLock { $0.append(onInterrupt) }
        defer { handlers.withLock { _ = $0.popLast() } }
        return try await body()
    }
}
