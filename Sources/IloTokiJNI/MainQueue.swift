import CIloTokiMainQueue
import Dispatch
import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#endif

/// Runs work on the main actor (where the app model lives) for a JNI call on any thread.
///
/// libdispatch binds Swift's main queue to the thread that loaded the library (`JNI_OnLoad`
/// runs there): the Android UI thread, or the harness's serving thread. On that thread a call
/// drains the queue itself until its work is done; on any other it waits while the loading
/// thread serves the queue (its Looper on Android, `runMainQueue` on a desktop JVM).
enum MainQueue {
    private static let loader = Locked<pthread_t?>(nil)
    /// Whether something serves the queue (a Looper, or `runMainQueue`), and the signal a
    /// call that arrives before `runMainQueue` has started waits on.
    private static let served = NSCondition()
    nonisolated(unsafe) private static var isServed = false

    /// Called by `JNI_OnLoad`: remembers the thread, and serves the queue from its Looper where
    /// it has one (Android's UI thread).
    static func loadedOnCurrentThread() {
        loader.store(pthread_self())
        if ilotoki_main_queue_serve_from_looper() { markServed(true) }
    }

    static var isLoaderThread: Bool {
        guard let thread = loader.value else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// `runMainQueue`: serves the queue on the loading thread until `stop`.
    static func serve() throws {
        guard isLoaderThread else { throw BridgeError.misuse("runMainQueue must run on the thread that loaded the library") }
        markServed(true)
        defer { markServed(false) }
        ilotoki_main_queue_run()
    }

    static func stop() { ilotoki_main_queue_stop() }

    private static func markServed(_ value: Bool) {
        served.lock()
        isServed = value
        served.broadcast()
        served.unlock()
    }

    /// Waits up to two seconds for a thread that is starting `runMainQueue`.
    private static func awaitServer() -> Bool {
        let deadline = Date(timeIntervalSinceNow: 2)
        served.lock()
        defer { served.unlock() }
        while !isServed, served.wait(until: deadline) {}
        return isServed
    }

    /// Runs `body` on the main actor and returns its result to the calling thread. For work
    /// that takes no time (an action's start, a screen's values): the caller waits only for
    /// the main actor's turn, never for long work, which `body` starts and leaves running.
    static func run<T: Sendable>(_ body: @escaping @MainActor @Sendable () throws -> T) throws -> T {
        try runAndWait { try body() }
    }

    /// Runs `body` on the main actor and waits, on the calling thread, until it has ended:
    /// only for `close`, which must not return while the session still works.
    static func runAndWait<T: Sendable>(_ body: @escaping @MainActor @Sendable () async throws -> T) throws -> T {
        let onLoader = isLoaderThread
        guard onLoader || awaitServer() else {
            throw BridgeError.misuse(
                "nothing serves Swift's main queue: load the library on the UI thread, or call runMainQueue on the thread that loaded it")
        }
        let outcome = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task { @MainActor in
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            outcome.store(result)
            done.signal()
        }
        if onLoader {
            // This thread is the queue's: it runs the task itself.
            while outcome.value == nil { _ = ilotoki_main_queue_wait_and_drain(20) }
        } else {
            done.wait()
        }
        guard let result = outcome.value else { throw BridgeError.misuse("the main actor ended without an answer") }
        return try result.get()
    }
}

/// What a JNI call can get wrong; each becomes a Java exception.
enum BridgeError: Error {
    /// A handle that was never opened or is closed: `IllegalStateException`.
    case noSession(Int64)
    /// An unknown action or an argument it cannot take: `IllegalArgumentException`.
    case badArgument(String)
    /// A required argument was `null`: `NullPointerException`.
    case null(String)
    /// The bridge used the wrong way round: `IllegalStateException`.
    case misuse(String)

    var javaClass: String {
        switch self {
        case .noSession, .misuse: "java/lang/IllegalStateException"
        case .badArgument: "java/lang/IllegalArgumentException"
        case .null: "java/lang/NullPointerException"
        }
    }

    var message: String {
        switch self {
        case .noSession(let handle): "no open ilo toki store has the handle \(handle) (closed, or never opened)"
        case .badArgument(let message), .null(let message), .misuse(let message): message
        }
    }
}
