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

/// Requests' texts translated together: every text that arrives while a group is being
/// translated waits for the next group, which takes all that fit (`groupSize`), from every
/// request at once, so concurrent clients share the engine's batched decoding. Each request
/// is answered as soon as its own texts are done.
///
/// Bounded: at most `queueLimit` texts wait (beyond: 429), and a text that waited
/// `deadline` without starting fails (503), so no request waits forever.
@MainActor
public final class ServedTranslations: ServedTranslating {
    let model: TranslatorModel
    let groupSize: Int
    let queueLimit: Int
    let deadline: Duration
    let keepsHistory: Bool

    private struct Waiting {
        let id: Int
        let text: TextToTranslate
        let since: ContinuousClock.Instant
    }

    private var waiting: [Waiting] = []
    /// Each text not answered yet: its request and its place there.
    private var continuations: [Int: (request: Request, place: Int)] = [:]
    private var nextID = 0
    private var pumping = false

    /// - Parameters:
    ///   - groupSize: texts translated together (the engine decodes a batch of them at once).
    ///   - keepsHistory: whether served translations go into the history (off by default:
    ///     served text is someone else's, and the server writes nothing of it).
    public init(model: TranslatorModel, groupSize: Int, queueLimit: Int = 1024, deadline: Duration = .seconds(120), keepsHistory: Bool = false) {
        self.model = model
        self.groupSize = max(1, groupSize)
        self.queueLimit = max(1, queueLimit)
        self.deadline = deadline
        self.keepsHistory = keepsHistory
    }

    public var isReady: Bool { model.modelState == .ready }
    public var modelName: String? { model.loadedModel?.displayName }

    /// Texts waiting or being translated.
    public var queued: Int { continuations.count }

    public func translate(_ texts: [TextToTranslate]) async throws -> [Result<String, Error>] {
        guard !texts.isEmpty else { return [] }
        guard isReady else { throw APIError(503, "The translation model is not ready yet", retryAfter: 5) }
        guard continuations.count + texts.count <= queueLimit else {
            throw APIError(429, "Slowdown: \(continuations.count) texts are waiting to be translated; try again in a moment", retryAfter: 2)
        }
        let ids = texts.map { _ in
            defer { nextID += 1 }
            return nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let request = Request(count: texts.count, continuation: continuation)
                for (place, text) in texts.enumerated() { enqueue(id: ids[place], text: text, for: request, at: place) }
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

    private func enqueue(id: Int, text: TextToTranslate, for request: Request, at place: Int) {
        var text = text
        text.keepsInHistory = keepsHistory
        continuations[id] = (request, place)
        waiting.append(Waiting(id: id, text: text, since: .now))
        if !pumping {
            pumping = true
            Task { await pump() }
        }
    }

    /// The server is stopping: every text not answered yet is told so (503), and the group
    /// being translated is given up.
    public func stopAll() {
        waiting.removeAll()
        for id in Array(continuations.keys) { finish(id, .failure(APIError(503, "The server is stopping; try again", retryAfter: 5))) }
    }

    /// A request that went away: its texts that wait are dropped, and those being translated
    /// are answered to no one.
    private func giveUp(_ ids: [Int]) {
        let given = Set(ids)
        waiting.removeAll { given.contains($0.id) }
        for id in ids { finish(id, .failure(CancellationError())) }
    }

    private func finish(_ id: Int, _ result: Result<String, Error>) {
        guard let (request, place) = continuations.removeValue(forKey: id) else { return }
        request.results[place] = result
        request.remaining -= 1
        if request.remaining == 0 { request.continuation.resume(returning: request.results) }
    }

    private func pump() async {
        defer { pumping = false }
        while !waiting.isEmpty {
            let now = ContinuousClock.now
            for late in waiting where now - late.since > deadline {
                finish(late.id, .failure(APIError(503, "The translation waited too long to start; try again", retryAfter: 5)))
            }
            waiting.removeAll { now - $0.since > deadline }
            let group = Array(waiting.prefix(groupSize))
            waiting.removeFirst(group.count)
            guard !group.isEmpty else { break }
            do {
                for try await update in model.translations(of: group.map(\.text)) {
                    switch update {
                    case .progress(let index, let progress) where progress.isFinal:
                        finish(group[index].id, .success(progress.text))
                    case .progress: break
                    case .failed(let index, let error):
                        finish(group[index].id, .failure(error))
                    }
                    // Every text of the group given up: stop translating for no one.
                    if group.allSatisfy({ continuations[$0.id] == nil }) { break }
                }
            } catch {
                for item in group { finish(item.id, .failure(error)) }
            }
            for item in group { finish(item.id, .failure(APIError(500, "The translation ended without a result"))) }
        }
    }
}
