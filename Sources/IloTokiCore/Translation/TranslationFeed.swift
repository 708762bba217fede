import Foundation
import IloTokiLocking

extension Translator {
    /// Opens a translation that takes texts while it runs (a server's requests): each text
    /// added joins the ones being translated as soon as the engine can take its sentences
    /// (`TranslationEngine.completeAll(fedBy:)`), rather than waiting for them to end.
    ///
    /// The updates carry the indices `TranslationFeed.add` returns, each text's in its own
    /// order, ending with a final progress or a failure. A text's translation may come in few
    /// pieces (its first piece at once, the rest at its end: the reader answers whole texts). They end once the feed is closed and
    /// every text added has ended. Cancelling the consuming task stops every translation.
    /// - Parameter whenFinished: called with each text and its final progress, on whatever
    ///   thread the engine's events arrive, under the feed's lock (it must not call the feed).
    public func openTranslation(
        whenFinished: @escaping @Sendable (TextToTranslate, TranslationProgress) -> Void = { _, _ in }
    ) -> (updates: TextUpdates, feed: TranslationFeed) {
        let (updates, continuation) = AsyncThrowingStream<TextUpdate, Error>.makeStream()
        let prompts = PromptFeed(stopSequences: format.allStopSequences, maxLines: 1, maxTokens: maxTokens, showsEveryPiece: false)
        let feed = TranslationFeed(translator: self, prompts: prompts, continuation: continuation, whenFinished: whenFinished)
        let events = engine.completeAll(fedBy: prompts)
        let task = Task {
            do {
                for try await event in events { feed.take(event) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in
            prompts.close()
            task.cancel()
        }
        return (TextUpdates(base: updates, feed: feed), feed)
    }
}

/// The updates of an open translation, in the order the engine sent them. A text given up
/// says no more from the moment `giveUp` returns: also what the engine had sent before and
/// no one had read yet is skipped as it is read.
public struct TextUpdates: AsyncSequence, Sendable {
    public typealias Element = TextUpdate
    let base: AsyncThrowingStream<TextUpdate, Error>
    let feed: TranslationFeed

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<TextUpdate, Error>.AsyncIterator
        let feed: TranslationFeed
        /// Updates read so far, skipped ones included.
        var read = 0

        public mutating func next() async throws -> TextUpdate? {
            while let update = try await base.next() {
                read += 1
                if !feed.skips(update.index, read: read) { return update }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), feed: feed) }
}

extension PromptFormat {
    /// The stop sequences of every direction: a batch of prompts in several directions shares
    /// them (each chunk is one line, which ends at its first line break, so the union ends
    /// each prompt where its own would).
    public var allStopSequences: [String] {
        var stops: [String] = []
        for direction in TranslationDirection.all {
            for stop in stopSequences(for: direction) where !stops.contains(stop) { stops.append(stop) }
        }
        return stops
    }
}

/// The texts of an open translation (`Translator.openTranslation`): add them as they come,
/// give up those no one waits for any more, close it when no more will come.
public final class TranslationFeed: Sendable {
    let translator: Translator
    let prompts: PromptFeed
    let continuation: AsyncThrowingStream<TextUpdate, Error>.Continuation
    let whenFinished: @Sendable (TextToTranslate, TranslationProgress) -> Void

    private struct Text {
        let source: TextToTranslate
        var assembly: Translator.Assembly
        /// Its chunks' prompts not ended yet.
        var prompts: Set<Int>
    }

    private struct State {
        var nextIndex = 0
        /// The texts not ended yet.
        var texts: [Int: Text] = [:]
        /// Each prompt not ended yet: its text and chunk.
        var owners: [Int: (text: Int, chunk: Int)] = [:]
        /// Updates sent so far (each under this lock, so in the order they are read).
        var sent = 0
        /// The texts given up before they ended, with the updates sent by then: those of them
        /// not read yet are skipped, and the text is forgotten once they all have been read.
        var givenUp: [Int: Int] = [:]
    }

    private let state = Locked(State())

    init(
        translator: Translator, prompts: PromptFeed, continuation: AsyncThrowingStream<TextUpdate, Error>.Continuation,
        whenFinished: @escaping @Sendable (TextToTranslate, TranslationProgress) -> Void
    ) {
        self.translator = translator
        self.prompts = prompts
        self.continuation = continuation
        self.whenFinished = whenFinished
    }

    /// Texts added and not ended yet.
    public var count: Int { state.withLock { $0.texts.count } }

    /// Adds a text; returns the index its updates carry, or `nil` once the feed is closed. A
    /// text that cannot be translated (empty, not text, a sentence too long) gets its failure
    /// among the updates.
    public func add(_ text: TextToTranslate) -> Int? {
        let planned = Result { try translator.plan(text.text, direction: text.direction) }
        let chunks = (try? planned.get()).map { translator.chunkPrompts(for: $0, direction: text.direction) } ?? []
        // The prompts are handed over under the lock their events take: each prompt's owner is
        // known before the engine can report on it.
        return state.withLock { state in
            guard !prompts.isClosed else { return nil }
            let index = state.nextIndex
            state.nextIndex += 1
            let plan: TranslationPlan
            switch planned {
            case .failure(let error):
                send(.failed(index: index, error), &state)
                return index
            case .success(let success): plan = success
            }
            var entry = Text(source: text, assembly: Translator.Assembly(plan: plan), prompts: [])
            for (chunk, prompt) in chunks.enumerated() {
                // Only a close on another thread since the check above refuses it.
                guard let promptIndex = prompts.add(prompt.prompt, maxTokens: prompt.maxTokens) else {
                    for given in entry.prompts {
                        prompts.drop(given)
                        state.owners[given] = nil
                    }
                    return nil
                }
                entry.prompts.insert(promptIndex)
                state.owners[promptIndex] = (index, chunk)
            }
            if entry.prompts.isEmpty {
                let progress = entry.assembly.progress()
                send(.progress(index: index, progress), &state)
                whenFinished(text, progress)
            } else {
                state.texts[index] = entry
            }
            return index
        }
    }

    /// Gives up a text (no one waits for it any more): its sentences not yet translated are
    /// dropped, and no update of it follows.
    public func giveUp(_ index: Int) {
        state.withLock { state in
            guard let text = state.texts.removeValue(forKey: index) else { return }
            state.givenUp[index] = state.sent
            for prompt in text.prompts {
                state.owners[prompt] = nil
                prompts.drop(prompt)
            }
        }
    }

    /// Whether the `read`-th update, about text `index`, was sent before that text was given
    /// up; forgets the texts given up whose updates have all been read.
    func skips(_ index: Int, read: Int) -> Bool {
        state.withLock { state in
            guard !state.givenUp.isEmpty else { return false }
            let skip = state.givenUp[index].map { read <= $0 } ?? false
            state.givenUp = state.givenUp.filter { $0.value > read }
            return skip
        }
    }

    /// Sends an update; the caller holds the lock.
    private func send(_ update: TextUpdate, _ state: inout State) {
        state.sent += 1
        continuation.yield(update)
    }

    /// No more texts: the updates end once those added have.
    public func close() {
        prompts.close()
    }

    /// One event of the engine, into its text's updates.
    func take(_ event: BatchCompletionEvent) {
        state.withLock { state in
            guard let owner = state.owners[event.index], var text = state.texts[owner.text] else { return }
            let ends: Bool
            switch event {
            case .piece: ends = false
            case .finished, .failed: ends = true
            }
            if ends {
                state.owners[event.index] = nil
                text.prompts.remove(event.index)
            }
            guard let update = text.assembly.take(event, chunk: owner.chunk, index: owner.text) else {
                state.texts[owner.text] = text
                return
            }
            send(update, &state)
            switch update {
            case .progress(_, let progress) where progress.isFinal:
                state.texts[owner.text] = nil
                whenFinished(text.source, progress)
            case .failed:
                // Its other sentences are of no use any more.
                state.texts[owner.text] = nil
                for prompt in text.prompts {
                    state.owners[prompt] = nil
                    prompts.drop(prompt)
                }
            case .progress:
                state.texts[owner.text] = text
            }
        }
    }
}
