import Foundation

/// Prompts handed to an engine while it completes others (`TranslationEngine.completeAll(fedBy:)`):
/// a server's requests, each arriving while the ones before are being translated, joining them
/// instead of waiting for them to end. Any thread may add, drop and close; the engine takes.
public final class PromptFeed: @unchecked Sendable {
    /// A prompt handed to the engine, under the index its events carry.
    public struct Entry: Sendable, Equatable {
        public let index: Int
        public let prompt: TranslationPrompt
        public let maxTokens: Int
    }

    /// What came since the engine last took.
    public struct Changes: Sendable, Equatable {
        public var prompts: [Entry] = []
        /// Prompts given up: each ends as stopped (`CompletionEnd.stopped`), nothing after.
        public var dropped: [Int] = []
        /// Nothing more will come.
        public var closed = false

        public var isEmpty: Bool { prompts.isEmpty && dropped.isEmpty && !closed }
    }

    /// The stop sequences and line limit every prompt of the feed shares (an engine's batch
    /// shares them): each prompt's own stop sequences must be among them.
    public let stopSequences: [String]
    public let maxLines: Int
    /// The largest token limit of any prompt.
    public let maxTokens: Int
    /// Whether whoever reads the events shows each piece as it comes. When not (a server
    /// answers whole texts), the engine may send a prompt's first piece at once and the rest
    /// together at its end: the same text, and no wakeup of the reader for every token, which
    /// on a device with as many cores as decoding threads takes time from the decoding.
    public let showsEveryPiece: Bool

    private let condition = NSCondition()
    private var pending = Changes()
    private var nextIndex = 0
    private var closed = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    public init(stopSequences: [String], maxLines: Int = 1, maxTokens: Int = Translator.defaultMaxTokens, showsEveryPiece: Bool = true) {
        self.stopSequences = stopSequences
        self.maxLines = maxLines
        self.maxTokens = maxTokens
        self.showsEveryPiece = showsEveryPiece
    }

    /// Hands a prompt to the engine; returns the index its events will carry, or `nil` once the
    /// feed is closed.
    @discardableResult
    public func add(_ prompt: TranslationPrompt, maxTokens: Int) -> Int? {
        change { pending in
            guard !closed else { return nil }
            defer { nextIndex += 1 }
            pending.prompts.append(Entry(index: nextIndex, prompt: prompt, maxTokens: maxTokens))
            return nextIndex
        }
    }

    /// Gives up a prompt (its client went away): the engine ends it as stopped, and never
    /// starts it if it has not yet.
    public func drop(_ index: Int) {
        change { $0.dropped.append(index) }
    }

    /// No more prompts: the engine's stream ends once those handed to it have.
    public func close() {
        change { pending in
            closed = true
            pending.closed = true
        }
    }

    /// Whether `close` has been called.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// What came since the last call; never blocks.
    public func take() -> Changes {
        condition.lock()
        defer { condition.unlock() }
        let taken = pending
        pending = Changes(closed: closed)
        return taken
    }

    /// Blocks the calling thread until something comes or `seconds` pass (an engine's own
    /// thread, with nothing to do).
    public func wait(seconds: Double) {
        condition.lock()
        defer { condition.unlock() }
        if pending.isEmpty { _ = condition.wait(until: Date(timeIntervalSinceNow: seconds)) }
    }

    /// Returns once something has come that was not taken yet (at once if it has), or the
    /// calling task is cancelled.
    public func changed() async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                condition.lock()
                if pending.isEmpty, !Task.isCancelled {
                    waiters[id] = continuation
                    condition.unlock()
                } else {
                    condition.unlock()
                    continuation.resume()
                }
            }
        } onCancel: {
            condition.lock()
            let waiter = waiters.removeValue(forKey: id)
            condition.unlock()
            waiter?.resume()
        }
    }

    private func change<Result>(_ body: (inout Changes) -> Result) -> Result {
        condition.lock()
        let result = body(&pending)
        let woken = waiters
        waiters.removeAll()
        condition.broadcast()
        condition.unlock()
        for waiter in woken.values { waiter.resume() }
        return result
    }
}
