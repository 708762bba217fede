import CLineEditor
import Foundation
import IloTokiLocking

/// Lines typed on a terminal, with real line editing (libedit): arrow keys, Ctrl-A/E, the up
/// arrow for earlier lines of the session, Ctrl-C to drop the line being typed.
///
/// libedit blocks while the user types; each read runs on a thread of its own so the main
/// actor stays free, and a cancelled read returns at once (the thread is left to finish).
final class LineEditor: @unchecked Sendable {
    /// What a read gave.
    enum Input: Sendable, Equatable {
        case line(String)
        /// Ctrl-C: the line was dropped.
        case cancelled
        /// Bytes that are not UTF-8 text.
        case invalid
        /// Ctrl-D, or the end of input.
        case end
    }

    // Used by one read at a time (the session waits for each), so never from two threads at once.
    private let editor: OpaquePointer

    init?() {
        guard let editor = ilotoki_line_editor_open("ilotoki") else { return nil }
        self.editor = editor
    }

    deinit { ilotoki_line_editor_close(editor) }

    /// Shows `prompt` and reads one line.
    func read(prompt: String) async -> Input {
        let pending = Locked<CheckedContinuation<Input, Never>?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Input, Never>) in
                pending.withLock { $0 = continuation }
                let thread = Thread { [self] in
                    let input = readNow(prompt: prompt)
                    pending.withLock { $0.take() }?.resume(returning: input)
                }
                thread.name = "ilotoki.line-editor"
                thread.start()
            }
        } onCancel: {
            pending.withLock { $0.take() }?.resume(returning: .end)
        }
    }

    /// Adds a line to the session's history (the up arrow).
    func remember(_ line: String) {
        ilotoki_line_editor_remember(editor, line)
    }

    private func readNow(prompt: String) -> Input {
        ilotoki_line_editor_set_prompt(editor, prompt)
        var line: UnsafePointer<CChar>?
        var length: Int32 = 0
        switch ilotoki_line_editor_read(editor, &line, &length) {
        case ILOTOKI_LINE_ENTERED:
            guard let line else { return .line("") }
            let bytes = UnsafeRawBufferPointer(start: line, count: Int(length))
            return String(validating: bytes, as: UTF8.self).map(Input.line) ?? .invalid
        case ILOTOKI_LINE_CANCELLED:
            return .cancelled
        default:
            return .end
        }
    }
}
