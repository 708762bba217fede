import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error for the command line: unbuffered (every piece reaches a pipe as
/// soon as it is generated), colour only on a terminal and only without `NO_COLOR`.
struct Console: Sendable {
    let environment: [String: String]

    var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// https://no-color.org: any non-empty NO_COLOR turns colour off.
    var colorAllowed: Bool { (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" }

    func out(_ text: String) { emit(STDOUT_FILENO, text) }
    func err(_ text: String) { emit(STDERR_FILENO, text) }

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

    private func emit(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return  // a closed pipe: nothing more can be said
                }
                offset += written
            }
        }
    }
}
