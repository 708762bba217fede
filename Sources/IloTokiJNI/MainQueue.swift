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
    private static let served = Locked(false)

    /// Called by `JNI_OnLoad`: remembers the thread, and serves the queue from its Looper where
    /// it has one (Android's UI thread).
    static func loadedOnCurrentThread() {
        loader.store(pthread_self())
        if ilotoki_main_queue_serve_from_looper() { served.store(true) }
    }

    static var isLoaderThread: Bool {
        guard let thread = loader.value else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// `runMainQueue`: serves the queue on the loading thread until `stop`.
    static func serve() throws {
        guard isLoaderThread else { throw BridgeError.misuse("runMainQueue must run on the thread that loaded the library") }
        served.store(true)
        defer { served.store(false) }
        ilotoki_main_queue_run()
    }

    static func stop() { ilotoki_main_queue_stop() }

    /// Runs `body` on the main actor and returns its result to the calling thread.
    static func run<T: Sendable>(_ body: @escaping @MainActor @Sendable () async throws -> T) throws -> T {
        let onLoader = isLoaderThread
        // A thread that just started runMainQueue may not have marked it yet.
        for _ in 0..<100 where !onLoader && !served.value { usleep(20_000) }
        guard onLoader || served.value else {
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
            while outcome.value == nil { _ = ilotoki_main_queue_wait_and_drain(20) }
        } else {
            done.wait()
        }
        return try outcome.value!.get()
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
