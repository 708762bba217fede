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
    // A signal that came while no handler was in place (the first moments of a command),
    // answered by the next handler put in place; 0 if none waits.
    private let unanswered = Locked<Int32>(0)
    // Set once in init and never touched again (so the class may be shared); kept so the sources stay alive.
    private let sources: [any DispatchSourceSignal]

    private init() {
        // Held pending, not ignored: a signal set to be ignored is thrown away, and libdispatch
        // puts its own reading of a signal in place on a thread of its own, a moment after the
        // source is resumed. A held signal waits for it.
        Self.hold()
        let queue = DispatchQueue(label: "ilotoki.interrupts")
        var sources: [any DispatchSourceSignal] = []
        for number in Self.signals {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            sources.append(source)
        }
        self.sources = sources
        for (number, source) in zip(Self.signals, sources) {
            source.setEventHandler { [unowned self] in fire(number) }
            source.resume()
        }
    }

    /// Holds the handled signals pending in the calling thread and every thread it starts from
    /// now on, until `shared` reads them: the process's first line calls it, before any thread
    /// exists, so that a Ctrl-C in the command's first milliseconds is answered, not lost. A
    /// signal before it has its default effect (nothing has begun).
    static func hold() {
        var held = sigset_t()
        sigemptyset(&held)
        for number in signals { sigaddset(&held, number) }
        pthread_sigmask(SIG_BLOCK, &held, nil)
    }

    /// Starts listening (the first use of `shared` does): until then the signals keep their
    /// default effect, or wait where `hold` held them, so the command line installs it before
    /// any work begins.
    static func install() { _ = shared }

    private func fire(_ number: Int32) {
        last.store(number)
        count.withLock { $0 += 1 }
        let handler = handlers.withLock { handlers -> (@Sendable (Int32) -> Void)? in
            guard let handler = handlers.last else {
                unanswered.store(number)
                return nil
            }
            return handler
        }
        handler?(number)
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
        let waiting = handlers.withLock { handlers -> Int32 in
            handlers.append(onInterrupt)
            return unanswered.exchange(0)
        }
        defer { handlers.withLock { _ = $0.popLast() } }
        if waiting != 0 { onInterrupt(waiting) }
        return try await body()
    }
}
