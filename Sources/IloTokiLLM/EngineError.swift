import CIloTokiLLM
import Foundation

/// A failure of the inference engine, with a message a person can act on.
public struct EngineError: Error, LocalizedError, Equatable, Sendable {
    /// What went wrong, for code that reacts differently to different failures.
    public enum Kind: Sendable, Equatable {
        case invalidArgument
        case fileNotFound
        case notAFile
        case unreadable
        case notGGUF
        case corruptModel
        case unsupportedModel
        case outOfMemory
        case promptTooLong
        case invalidText
        case decodeFailed
        case notStarted
        /// The process is ending (`Engine.endAllWork`): no new work starts.
        case closing
        case `internal`
    }

    public let kind: Kind
    /// The core's message; it names the file or the limit involved.
    public let message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var errorDescription: String? { message }

    /// What a load or check started after `Engine.endAllWork` throws.
    static let closing = EngineError(kind: .closing, message: "ilo toki is closing; the model was not loaded.")

    /// Whether the model file itself is at fault (so deleting and downloading it again helps).
    public var isBadModelFile: Bool {
        [.notGGUF, .corruptModel, .unsupportedModel].contains(kind)
    }

    init(status: ilotoki_llm_status, buffer: [CChar]) {
        let kind: Kind
        switch status {
        case ILOTOKI_LLM_ERROR_INVALID_ARGUMENT: kind = .invalidArgument
        case ILOTOKI_LLM_ERROR_FILE_NOT_FOUND: kind = .fileNotFound
        case ILOTOKI_LLM_ERROR_NOT_A_FILE: kind = .notAFile
        case ILOTOKI_LLM_ERROR_UNREADABLE: kind = .unreadable
        case ILOTOKI_LLM_ERROR_NOT_GGUF: kind = .notGGUF
        case ILOTOKI_LLM_ERROR_CORRUPT_MODEL: kind = .corruptModel
        case ILOTOKI_LLM_ERROR_UNSUPPORTED_MODEL: kind = .unsupportedModel
        case ILOTOKI_LLM_ERROR_OUT_OF_MEMORY: kind = .outOfMemory
        case ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG: kind = .promptTooLong
        case ILOTOKI_LLM_ERROR_INVALID_TEXT: kind = .invalidText
        case ILOTOKI_LLM_ERROR_DECODE_FAILED: kind = .decodeFailed
        case ILOTOKI_LLM_ERROR_NOT_STARTED: kind = .notStarted
        default: kind = .internal
        }
        var message = buffer.withUnsafeBufferPointer { pointer in
            String(decoding: pointer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        if message.isEmpty {
            message = "The inference library failed (\(String(cString: ilotoki_llm_status_name(status))))."
        }
        self.init(kind: kind, message: message)
    }
}
