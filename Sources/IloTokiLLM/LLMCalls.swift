import Foundation

/// The inference library's work in flight anywhere in the process (loads, checks, generations,
/// frees), and the engines alive, so that a process can end without racing it.
///
/// llama.cpp keeps process-wide state (its backend registry, the CPU backend's buffer types)
/// that the C++ runtime destroys when the process exits; a decode still running on another
/// thread then reads freed memory and the process dies of SIGSEGV on its way out. So every
/// front end calls `Engine.endAllWork()` before it leaves: it stops every generation, waits
/// for whatever runs, and refuses new work from then on.
final class LLMCalls: @unchecked Sendable {
    static let shared = LLMCalls()

    // Guards everything below; `wait` sleeps on it until `running` drops to 0.
    private let condition = NSCondition()
    private var running = 0
    private var ending = false
    private var exitHandlerInstalled = false
    private var engines: [ObjectIdentifier: WeakEngine] = [:]

    private struct WeakEngine {
        weak var engine: Engine?
    }

    /// Starts a piece of work; `false` once the process is ending (then do not start it).
    func begin() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !ending else { return false }
        running += 1
        return true
    }

    /// Ends a piece of work that `begin` allowed.
    func end() {
        condition.lock()
        running -= 1
        if running == 0 { condition.broadcast() }
        condition.unlock()
    }

    /// Runs `work` as one piece of core work, or returns `nil` without running it once the
    /// process is ending.
    func perform<Value>(_ work: () throws -> Value) rethrows -> Value? {
        guard begin() else { return nil }
        defer { end() }
        return try work()
    }

    func register(_ engine: Engine) {
        condition.lock()
        engines[ObjectIdentifier(engine)] = WeakEngine(engine: engine)
        let first = !exitHandlerInstalled
        exitHandlerInstalled = true
        condition.unlock()
        // A host that exits without calling `endAllWork` (a Java app's `System.exit`) still
        // waits for the core first: handlers registered with `atexit` run in the reverse
        // order of registration, so this one runs before the destructors of the llama.cpp
        // state that the first load built.
        if first { atexit { LLMCalls.shared.endAll() } }
    }

    func unregister(_ id: ObjectIdentifier) {
        condition.lock()
        engines[id] = nil
        condition.unlock()
    }

    /// Refuses new work, stops every engine's generations and blocks until nothing of the
    /// core runs on any thread. Safe to call more than once.
    func endAll() {
        condition.lock()
        ending = true
        let live = engines.values.compactMap(\.engine)
        condition.unlock()
        // Outside the lock: stopping takes each engine's own lock, which a generation holds
        // while it begins its work here.
        for engine in live { engine.stopAll() }
        condition.lock()
        while running > 0 { condition.wait() }
        condition.unlock()
    }
}
