import Foundation
import IloTokiCore

/// What the API needs of the translator: texts translated, each with its own result.
public protocol ServedTranslating: Sendable {
    /// Whether a model is loaded and translates (503 until then).
    var isReady: Bool { get async }
    /// The model that answers, for the start-up line.
    var modelName: String? { get async }
    /// Translates `texts`, each on its own; the results in the same order. Cancelling the
    /// calling task gives up these texts and no others.
    /// - Throws: `APIError` 429 when the queue is full, 503 when no model is ready.
    func translate(_ texts: [TextToTranslate]) async throws -> [Result<String, Error>]
}

/// Requests' texts translated together, through one open translation
/// (`TranslatorModel.openTranslation`): a text that arrives while others are being translated
/// joins them as soon as the engine has a free place (its sentences join the running batch),
/// from every request at once, so concurrent clients share the engine's batched decoding. Each
/// request is answered as soon as its own texts are done; a request that goes away gives up
/// only its own texts.
///
/// Bounded: at most `queueLimit` texts wait or are translated (beyond: 429), and a text that
/// got no translated word within `deadline` fails (503), so no request waits forever.
@MainActor
public final class ServedTranslations: ServedTranslating {
    let model: TranslatorModel
    let queueLimit: Int
    /// How long a text may wait for its first translated word; a change applies to the texts
    /// pending too.
    var deadline: Duration
    let keepsHistory: Bool

    /// Each text not answered yet: its request, its place there, when it came, whether any of
    /// its translation has come yet, and its index in the open translation.
    private struct Pending {
        let request: Request
        let place: Int
        let since: ContinuousClock.Instant
        var started = false
        var index: Int?
    }

    private var pending: [Int: Pending] = [:]
    /// The open translation's indices, to the texts' ids.
    private var ids: [Int: Int] = [:]
    private var nextID = 0
    private var open: (feed: TranslationFeed, task: Task<Void, Never>)?
    private var watching = false

    /// - Parameters:
    ///   - keepsHistory: whether served translations go into the history (off by default:
    ///     served text is someone else's, and the server writes nothing of it).
    public init(model: TranslatorModel, queueLimit: Int = 1024, deadline: Duration = .seconds(120), keepsHistory: Bool = false) {
        self.model = model
        self.queueLimit = max(1, queueLimit)
        self.deadline = deadline
        self.keepsHistory = keepsHistory
    }

    public var isReady: Bool { model.modelState == .ready }
    public var modelName: String? { model.loadedModel?.displayName }

    /// Texts waiting or being translated.
    public var queued: Int { pending.count }
    /// Texts pending that have their first translated word (the deadline no longer applies).
    var started: Int { pending.values.filter(\.started).count }

    public func translate(_ texts: [TextToTranslate]) async throws -> [Result<String, Error>] {
        guard !texts.isEmpty else { return [] }
        guard isReady else { throw APIError(503, "The translation model is not ready yet", retryAfter: 5) }
        guard pending.count + texts.count <= queueLimit else {
            throw APIError(429, "Slowdown: \(pending.count) texts are waiting to be translated; try again in a moment", retryAfter: 2)
        }
        let ids = texts.map { _ in
            defer { nextID += 1 }
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let request = Request(count: texts.count, continuation: continuation)
                for (place, text) in texts.enumerated() { add(id: ids[place], text: text, for: request, at: place) }
            }
        } onCancel: {
            Task { @MainActor in self.giveUp(ids) }
        }
    }

    /// One request's texts: answered once all have their result.
    private final class Request {
        var results: [Result<String, Error>]
        var remaining: Int
        let continuation: CheckedContinuation<[Result<String, Error>], Never>

        init(count: Int, continuation: CheckedContinuation<[Result<String, Error>], Never>) {
            results = Array(repeating: .failure(CancellationError()), count: count)
            remaining = count
            self.continuation = continuation
        }
    }

    private func add(id: Int, text: TextToTranslate, for request: Request, at place: Int) {
        var text = text
        text.keepsInHistory = keepsHistory
        pending[id] = Pending(request: request, place: place, since: .now)
        guard let feed = openFeed() else {
            finish(id, .failure(APIError(503, "The translation model is not ready yet", retryAfter: 5)))
            return
        }
        // The feed reports on the text only once this code has returned (the updates are taken
        // on this actor), so its id is known by then.
        guard let index = feed.add(text) else {
            finish(id, .failure(APIError(503, "The server is stopping; try again", retryAfter: 5)))
            return
        }
        ids[index] = id
        pending[id]?.index = index
        watchDeadlines()
    }

    /// The open translation, opened now if none is.
    private func openFeed() -> TranslationFeed? {
        if let open { return open.feed }
        guard let (updates, feed) = try? model.openTranslation() else { return nil }
        let task = Task { [weak self] in
            var failure: Error = APIError(500, "The translation ended without a result")
            do {
                for try await update in updates { self?.take(update) }
            } catch {
                failure = error
            }
            self?.translationEnded(feed, failure)
        }
        open = (feed, task)
        return feed
    }

    private func take(_ update: TextUpdate) {
        switch update {
        case .progress(let index, let progress):
            guard let id = ids[index] else { return }
            pending[id]?.started = true
            if progress.isFinal { finish(id, .success(progress.text)) }
        case .failed(let index, let error):
            guard let id = ids[index] else { return }
            finish(id, .failure(error))
        }
    }

    /// The open translation ended (the engine stopped or failed): every text of it not
    /// answered gets `failure`, and the next text opens another.
    private func translationEnded(_ feed: TranslationFeed, _ failure: Error) {
        guard open?.feed === feed else { return }
        open = nil
        for (id, text) in pending where text.index != nil { finish(id, .failure(failure)) }
    }

    /// The server is stopping: every text not answered yet is told so (503), and what is being
    /// translated is given up.
    public func stopAll() {
        for id in Array(pending.keys) { finish(id, .failure(APIError(503, "The server is stopping; try again", retryAfter: 5))) }
        open?.feed.close()
        open?.task.cancel()
        open = nil
    }

    /// A request that went away: its texts are given up, and no one else's.
    private func giveUp(_ ids: [Int]) {
        for id in ids { finish(id, .failure(CancellationError())) }
    }

    /// Answers a text, and gives it up in the open translation if it was still being translated.
    private func finish(_ id: Int, _ result: Result<String, Error>) {
        guard let text = pending.removeValue(forKey: id) else { return }
        if let index = text.index {
            ids[index] = nil
            if case .failure = result { open?.feed.giveUp(index) }
        }
        text.request.results[text.place] = result
        text.request.remaining -= 1
        if text.request.remaining == 0 { text.request.continuation.resume(returning: text.request.results) }
    }

    /// While texts are pending, fails those that got no translated word within the deadline.
    private func watchDeadlines() {
        guard !watching else { return }
        watching = true
        Task { [weak self] in
            while let self, !self.pending.isEmpty {
                let now = ContinuousClock.now
                let late = self.pending.filter { !$0.value.started && now - $0.value.since > self.deadline }.map(\.key)
                for id in late {
                    self.finish(id, .failure(APIError(503, "The translation waited too long to start; try again", retryAfter: 5)))
                }
                try? await Task.sleep(for: min(self.deadline / 4, .seconds(1)))
            }
            self?.watching = false
        }
    }
}
