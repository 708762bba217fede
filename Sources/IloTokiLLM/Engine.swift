import CIloTokiLLM
import Dispatch
import Foundation
import IloTokiLocking

/// A loaded model that turns prompts into streamed text.
///
/// All work with the model (loading, evaluating, generating) runs off Swift's cooperative
/// thread pool: loading on a thread of its own, generation on the engine's serial queue,
/// so a slow phone never starves the rest of the app. One generation runs at a time; a new
/// one cancels the one before it.
public final class Engine: Sendable {
    /// How the model is loaded.
    public struct Options: Sendable, Equatable {
        /// Tokens the context holds (prompt and output together).
        public var contextLength: Int
        /// Decoding threads; `nil` uses `PerformanceCores.count`.
        public var threads: Int?
        /// Prompt tokens evaluated per batch; `nil` means the whole context.
        public var batchSize: Int?
        /// Flash attention on or off; `nil` lets llama.cpp decide.
        public var flashAttention: Bool?

        public init(contextLength: Int = 2048, threads: Int? = nil, batchSize: Int? = nil, flashAttention: Bool? = nil) {
            self.contextLength = contextLength
            self.threads = threads
            self.batchSize = batchSize
            self.flashAttention = flashAttention
        }
    }

    /// The model file.
    public let path: String
    /// Facts about the loaded model.
    public let info: ModelInfo

    let handle: Handle
    let queue = DispatchQueue(label: "ilotoki.engine", qos: .userInitiated)
    let state = Locked(State())

    struct Handle: @unchecked Sendable {
        // The inference library serialises work on one handle itself; `stop` is safe from any thread.
        let pointer: OpaquePointer
    }

    struct State {
        /// The most recently requested generation.
        var latest: Job?
        /// The generation the core is working on now.
        var running: Job?
        /// Figures of the last generation that ran, however it ended.
        var lastStats: GenerationStats?
    }

    /// Loads a model on a thread of its own.
    /// - Parameters:
    ///   - path: the GGUF file.
    ///   - options: how to load it.
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public static func load(path: String, options: Options = Options()) async throws -> Engine {
        try await onThreadOfItsOwn(named: "ilotoki.load") { try Engine(path: path, options: options) }
    }

    /// Checks that a file is a model this build can run (its GGUF structure, architecture and
    /// vocabulary) without loading its weights, on a thread of its own.
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public static func check(path: String) async throws {
        try await onThreadOfItsOwn(named: "ilotoki.check") {
            var error = [CChar](repeating: 0, count: 1024)
            guard let status = LLMCalls.shared.perform({ ilotoki_llm_check_model(path, &error, error.count) }) else {
                throw EngineError.closing
            }
            guard status == ILOTOKI_LLM_OK else { throw EngineError(status: status, buffer: error) }
        }
    }

    /// Stops every generation of every engine in the process, waits until no load, check,
    /// generation or free of the core runs on any thread, and refuses new work from then on:
    /// loads and checks throw `EngineError.closing`, generations end at once as stopped.
    ///
    /// Call it last, just before the process exits (the command line, the Linux app) or a
    /// host unloads the core: llama.cpp's process-wide state is destroyed at exit, and a
    /// decode still running on another thread would crash the process on its way out. It
    /// blocks for at most one token's work.
    public static func endAllWork() {
        LLMCalls.shared.endAll()
    }

    /// Runs blocking work (reading a model file) on a thread of its own, off the cooperative
    /// pool, and returns what it gave.
    private static func onThreadOfItsOwn<Value: Sendable>(
        named name: String, _ work: @escaping @Sendable () throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try work() }) }
            thread.name = name
            thread.start()
        }
    }

    /// Loads a model on the calling thread, blocking it (command-line tools and benchmarks;
    /// apps use `load(path:options:)`).
    /// - Throws: `EngineError` naming the file and what is wrong with it.
    public init(path: String, options: Options = Options()) throws {
        var params = ilotoki_llm_default_load_params()
        params.context_length = Int32(clamping: options.contextLength)
        params.threads = Int32(clamping: options.threads ?? 0)
        params.batch_size = Int32(clamping: options.batchSize ?? 0)
        params.flash_attention = options.flashAttention.map { $0 ? 1 : 0 } ?? -1
        var error = [CChar](repeating: 0, count: 1024)
        var pointer: OpaquePointer?
        guard let status = LLMCalls.shared.perform({ ilotoki_llm_load(path, &params, &pointer, &error, error.count) }) else {
            throw EngineError.closing
        }
        guard status == ILOTOKI_LLM_OK, let pointer else {
            throw EngineError(status: status, buffer: error)
        }
        var cInfo = ilotoki_llm_model_info()
        ilotoki_llm_get_model_info(pointer, &cInfo)
        self.path = path
        self.handle = Handle(pointer: pointer)
        self.info = ModelInfo(
            architecture: String(cString: cInfo.architecture),
            description: String(cString: cInfo.description),
            contextLength: Int(cInfo.context_length),
            trainedContextLength: Int(cInfo.trained_context_length),
            vocabularySize: Int(cInfo.vocabulary_size),
            threads: Int(cInfo.threads),
            modelBytes: cInfo.model_bytes,
            parameters: cInfo.parameters,
            trimmedHead: cInfo.trimmed_head,
            trimmedHeadUnavailable: cInfo.trimmed_head_unavailable.map { String(cString: $0) } ?? "",
            trimmedHeadKernel: cInfo.trimmed_head_kernel.map { String(cString: $0) } ?? "",
            trimmedHeadKernelFromStates: Int(cInfo.trimmed_head_kernel_from_states),
            trimmedHeadCheckStreams: cInfo.trimmed_head_check_streams.map { String(cString: $0) } ?? ""
        )
        LLMCalls.shared.register(self)
    }

    deinit {
        LLMCalls.shared.unregister(ObjectIdentifier(self))
        // Every queued generation holds the engine, so none is running by now. Once the
        // process is ending the model is left to the exit: freeing it then would race the
        // destruction of llama.cpp's process-wide state.
        let handle = handle
        _ = LLMCalls.shared.perform { ilotoki_llm_free(handle.pointer) }
    }

    /// Benchmarks: pages the model file out of memory, as a phone's system does to an app in
    /// the background, and returns the advice that did it ("MADV_PAGEOUT", ...). Waits for a
    /// generation running on the handle.
    /// - Throws: `EngineError` where nothing pages it out.
    public func evict() throws -> String {
        var how = [CChar](repeating: 0, count: 256)
        guard let status = LLMCalls.shared.perform({ ilotoki_llm_evict(handle.pointer, &how, how.count) }) else {
            throw EngineError.closing
        }
        guard status == ILOTOKI_LLM_OK else { throw EngineError(status: status, buffer: how) }
        return String(cString: how)
    }

    /// The fraction of the model file's pages in memory now (`mincore`); 1 where unknown.
    public var residentFraction: Double { LLMCalls.shared.perform { ilotoki_llm_resident_fraction(handle.pointer) } ?? 1 }

    /// Tells the core whether the device is short of memory (an app's memory warning,
    /// Android's `onTrimMemory`, Linux's memory pressure): while it is, the trimmed head's
    /// checks read the rows they rule out from the file without keeping them in memory, so
    /// that the model's body and kept rows stay. Taken from the next translation on; the
    /// tokens are the same either way. Any thread; returns at once.
    public func setShortOfMemory(_ short: Bool) {
        _ = LLMCalls.shared.perform { ilotoki_llm_set_memory_pressure(handle.pointer, short, nil, 0) }
    }

    /// Why the trimmed head's checks stream the rows they rule out now ("" where they read
    /// them through the mapping): the load's reason, or the device's word (`setShortOfMemory`).
    public var checksStream: String {
        LLMCalls.shared.perform {
            var cInfo = ilotoki_llm_model_info()
            guard ilotoki_llm_get_model_info(handle.pointer, &cInfo) == ILOTOKI_LLM_OK else { return "" }
            return cInfo.trimmed_head_check_streams.map { String(cString: $0) } ?? ""
        } ?? ""
    }

    /// The llama.cpp version the core was built against.
    public static var backendVersion: String { String(cString: ilotoki_llm_backend_version()) }

    /// Streams the text generated after `prompt`.
    ///
    /// Cancelling the consuming task (or dropping the stream) stops the generation. A new
    /// generation on this engine ends this stream with `CancellationError`.
    /// - Parameters:
    ///   - prompt: the complete prompt.
    ///   - maxTokens: at most this many tokens are generated.
    ///   - stopSequences: the output ends at the first of these; they are not emitted.
    ///   - maxLines: the output ends before it would have more lines than this.
    public func generate(
        prompt: String, maxTokens: Int = 512, stopSequences: [String] = [], maxLines: Int? = nil
    ) -> AsyncThrowingStream<String, Error> {
        let options = GenerationOptions(maxTokens: maxTokens, maxLines: maxLines, stopSequences: stopSequences)
        return stream(prompt: prompt, options: options, piece: { $0 }, finished: { _ in nil })
    }

    /// Streams the pieces of the generated text, then its figures.
    public func events(prompt: String, options: GenerationOptions = GenerationOptions()) -> AsyncThrowingStream<
        GenerationEvent, Error
    > {
        stream(prompt: prompt, options: options, piece: { .piece($0) }, finished: { .finished($0) })
    }

    /// Stops the latest generation, at whatever point it is (queued, evaluating the prompt,
    /// generating); its stream ends normally with the finish reason `stopped`, and no piece
    /// follows. Returns at once: it never waits for the model, so a UI thread may call it.
    public func stop() {
        state.withLock { state in
            guard let latest = state.latest else { return }
            latest.end(.stopped)
            // The running job holds the core's latest ticket, reserved under this same lock,
            // so the request reaches it even before the core's `start` has begun.
            if state.running === latest { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    /// Stops the generation queued and the one running, whichever there are; their streams
    /// end normally as stopped. Returns at once (`waitUntilIdle` waits for the work to end).
    public func stopAll() {
        state.withLock { state in
            state.latest?.end(.stopped)
            state.running?.end(.stopped)
            if state.running != nil { ilotoki_llm_request_stop(handle.pointer) }
        }
    }

    /// Whether a generation has reached the core (its prompt checked, tokenized, evaluated,
    /// or its tokens generated), rather than waiting in the queue.
    public var isRunning: Bool { state.withLock { $0.running != nil } }

    /// Figures of the last generation that ran, however it ended (also a cancelled one).
    public var lastStats: GenerationStats? { state.withLock { $0.lastStats } }

    /// Returns once every generation requested so far has ended.
    public func waitUntilIdle() async {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume() }
        }
    }

    /// Counts the tokens of `text` as a prompt (BOS included); `nil` if it is not valid text.
    public func tokenCount(of text: String) -> Int? {
        guard !text.utf8.contains(0), let count = LLMCalls.shared.perform({ ilotoki_llm_count_tokens(handle.pointer, text) }) else {
            return nil
        }
        return count >= 0 ? Int(count) : nil
    }

}

extension Engine {
    /// The bytes of `tokens` as llama.cpp detokenizes them in one go (special tokens left
    /// out). Tests compare this with the streamed pieces.
    public func detokenize(_ tokens: [Int32]) -> [UInt8] {
        LLMCalls.shared.perform {
            let needed = tokens.withUnsafeBufferPointer { buffer in
                ilotoki_llm_detokenize(handle.pointer, buffer.baseAddress, Int32(buffer.count), nil, 0)
            }
            guard needed > 0 else { return [] }
            var bytes = [CChar](repeating: 0, count: Int(needed))
            let written = tokens.withUnsafeBufferPointer { buffer in
                ilotoki_llm_detokenize(handle.pointer, buffer.baseAddress, Int32(buffer.count), &bytes, needed)
            }
            return bytes.prefix(Int(max(written, 0))).map { UInt8(bitPattern: $0) }
        } ?? []
    }
}
