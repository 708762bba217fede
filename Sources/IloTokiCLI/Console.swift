import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error for the command line: unbuffered (every piece reaches a pipe as
/// soon as it is generated), colour only on a terminal and only without `NO_COLOR`.
///
/// A write to standard output that fails is remembered: a closed pipe (`| head -1`) means
/// nobody reads any more, and the command ends quietly; any other failure (a full disk,
/// `> /dev/full`) is reported once, and the command fails.
struct Console: Sendable {
    let environment: [String: String]
    private let output = OutputState()

    init(environment: [String: String]) {
        self.environment = environment
    }

    var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// https://no-color.org: any non-empty NO_COLOR turns colour off.
    var colorAllowed: Bool { (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" }

    func out(_ text: String) {
        guard !output.stopped else { return }
        if let error = Self.emit(STDOUT_FILENO, text) { output.record(error) }
    }

    func err(_ text: String) { _ = Self.emit(STDERR_FILENO, text) }

    /// Whether standard output can no longer be written (closed, or failing): stop working.
    var outputStopped: Bool { output.stopped }
    /// Why writing to standard output failed, other than a closed pipe.
    var outputFailure: String? { output.failure }

    /// An error in one sentence, on standard error.
    func error(_ message: String) {
        let prefix = stderrIsTerminal && colorAllowed ? "\u{1B}[1;31merror:\u{1B}[0m " : "error: "
        err(prefix + message + "\n")
    }

    /// Dims `text` on a colour terminal (figures, hints).
    func dim(_ text: String, onStderr: Bool = false) -> String {
        let terminal = onStderr ? stderrIsTerminal : stdoutIsTerminal
        return terminal && colorAllowed ? "\u{1B}[2m\(text)\u{1B}[0m" : text
    }

    func bold(_ text: String) -> String {
        stdoutIsTerminal && colorAllowed ? "\u{1B}[1m\(text)\u{1B}[0m" : text
    }

    /// Writes all of `text`; returns `errno` when a write fails.
    private static func emit(_ fd: Int32, _ text: String) -> Int32? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }

    /// What became of standard output, shared by every copy of the console.
    private final class OutputState: Sendable {
        private let state = Locked<(closed: Bool, failure: String?)>((false, nil))

        func record(_ error: Int32) {
            state.withLock { state in
                if error == EPIPE {
                    state.closed = true
                } else if state.failure == nil {
                    state.failure = String(cString: strerror(error))
                }
            }
        }

        var failure: String? { state.withLock { $0.failure } }
        var stopped: Bool { state.withLock { $0.closed || $0.failure != nil } }
    }
}
