import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines of standard input as they arrive, read on a thread of their own so a pipe streams
/// (`tail -f notes | ilotoki`) and the main actor stays free.
enum StandardInput {
    /// A line: its number (from 1) and its text, or `nil` when it is not valid UTF-8.
    struct Line: Sendable {
        let number: Int
        let text: String?
    }

    static func lines() -> AsyncStream<Line> {
        AsyncStream { continuation in
            let thread = Thread {
                var pending: [UInt8] = []
                var number = 0
                var buffer = [UInt8](repeating: 0, count: 65536)
                func emit(_ bytes: ArraySlice<UInt8>) {
                    number += 1
                    var line = Array(bytes)
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    continuation.yield(Line(number: number, text: String(validating: line, as: UTF8.self)))
                }
                while true {
                    let count = read(STDIN_FILENO, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    pending += buffer[0..<count]
                    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                        emit(pending[..<newline])
                        pending.removeSubrange(...newline)
                    }
                }
                if !pending.isEmpty { emit(pending[...]) }
                continuation.finish()
            }
            thread.name = "ilotoki.stdin"
            thread.start()
        }
    }
}
