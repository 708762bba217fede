import Foundation
import Observation

/// Waits until `condition` holds, and says whether it did within `timeout`.
///
/// The condition is checked again whenever something observable it reads changes (the app
/// model's state, through Observation), and at least every 20 ms for state outside
/// Observation (an engine's counters, a file). Use it as `#expect(await eventually { … })`.
/// The timeout is multiplied by `testTimeScale` (a sanitized build runs several times slower).
/// It is generous (a minute) because a passing wait returns as soon as the condition holds: only
/// a failing test waits it out, and a loaded machine (the stress script, CI beside other jobs)
/// can take many seconds to load a model or finish a download.
@MainActor
public func eventually(timeout: Duration = .seconds(60), _ condition: @MainActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout * testTimeScale
    while !condition() {
        if ContinuousClock.now >= deadline { return false }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Resumed(continuation)
            withObservationTracking {
                _ = condition()
            } onChange: {
                resumed.resume()
            }
            Task { @MainActor in
                try? await Task.sleep(for: .milliseconds(20))
                resumed.resume()
            }
        }
    }
    return true
}

/// How much longer than usual a test waits for something to happen: `ILOTOKI_TEST_TIME_SCALE`
/// (scripts/test-sanitizers.sh sets it for ThreadSanitizer, which slows every step several
/// times over), else 1. Waits for something that must not happen are not scaled.
public let testTimeScale: Int = {
    guard let text = ProcessInfo.processInfo.environment["ILOTOKI_TEST_TIME_SCALE"], let scale = Int(text), scale >= 1 else { return 1 }
    return min(scale, 20)
}()

/// Resumes a continuation once, whoever comes first.
private final class Resumed: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, Never>?

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }

    func resume() {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume()
    }
}
