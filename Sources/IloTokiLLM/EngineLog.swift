import CIloTokiLLM
import Foundation

/// Where llama.cpp's and ggml's own log lines go.
///
/// They never reach the terminal by themselves: the one error a person reads is ours (which
/// quotes llama.cpp's first reason). The lines are kept in a small file for whoever looks into
/// a problem, and shown as they come with `ilotoki --verbose` (or `ILOTOKI_LLM_LOG=1`).
public enum EngineLog {
    /// The file's bound: past it, the file becomes `<name>.1` and a new one begins, so the log
    /// never takes more than twice this.
    public static let defaultMaxBytes = 1 << 20

    /// Sends the lines to `file` (appended, created readable by the user only when the first
    /// line comes), or nowhere when `nil`; with `echo`, also to standard error. A file that
    /// cannot be written is skipped: the log never stops a translation.
    public static func write(to file: URL?, maxBytes: Int = defaultMaxBytes, echo: Bool = false) {
        ilotoki_llm_set_log(file?.path, UInt64(max(maxBytes, 0)), echo ? 1 : 0)
    }
}
