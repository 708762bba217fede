import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lines of standard input as they arrive, read on a thread of their own so a pipe streams
/// (`tail -f notes | ilotoki`) and the main actor stays free.
///
/// The reader runs at most `capacity` lines ahead of what the translation has taken
/// (`Lines.taken`), so a file of any size is read as it is translated, in memory that does not
/// grow with it. A line is held whole, however long (a paragraph of a PDF is one line).
enum StandardInput {
    /// A line: its number (from 1) and its text, or `nil` when it is not valid UTF-8.
    struct Line: Sendable {
        let number: Int
        let text: String?
        /// Bytes of standard input up to the end of this line (its newline included).
        var endOffset: Int64 = 0
    }

    /// The lines, and the count of them the reader may run ahead.
    final class Lines: Sendable {
        let stream: AsyncStream<Line>
        let slots: Slots

        fileprivate init(stream: AsyncStream<Line>, slots: Slots) {
            self.stream = stream
            self.slots = slots
        }

        /// `count` lines were taken from the stream: the reader may read as many more.
        func taken(_ count: Int) {
            slots.free(count)
        }
    }

    /// How many more lines the reader may read: it waits while there are none, until the
    /// translation frees some or the stream ends.
    ///
    /// Not a `DispatchSemaphore`: libdispatch stops the process when a semaphore is freed with
    /// a value below the one it was made with, which is what a reader that is ahead holds when
    /// Ctrl-C ends the run.
    final class Slots: @unchecked Sendable {
        private let condition = NSCondition()
        private var available: Int  // guarded by `condition`
        private var closed = false  // guarded by `condition`

        init(_ count: Int) { available = count }

        func free(_ count: Int) {
            condition.lock()
            available += count
            condition.unlock()
            condition.broadcast()
        }

        /// Takes a slot, waiting for one; `false` when the stream ended first.
        func take() -> Bool {
            condition.lock()
            defer { condition.unlock() }
            while available == 0, !closed { condition.wait() }
            guard !closed else { return false }
            available -= 1
            return true
        }

        func close() {
            condition.lock()
            closed = true
            condition.unlock()
            condition.broadcast()
        }
    }

    /// What is left to read of standard input when it is a regular file (`ilotoki < file`),
    /// else `nil`. Asked before `lines()` starts reading.
    static func size() -> Int64? {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size) - Int64(lseek(STDIN_FILENO, 0, SEEK_CUR)).clamped(to: 0...Int64(info.st_size))
    }

    /// The lines of standard input (or of another descriptor, for the tests).
    static func lines(capacity: Int = 1024, from descriptor: Int32 = STDIN_FILENO) -> Lines {
        let slots = Slots(capacity)
        let stream = AsyncStream<Line> { continuation in
            let cancelled = Locked(false)
            continuation.onTermination = { _ in
                cancelled.withLock { $0 = true }
                slots.close()  // a reader waiting for a slot sees the end
            }
            let thread = Thread {
                var pending: [UInt8] = []
                var scanned = 0  // bytes of `pending` known to hold no newline
                var number = 0
                var offset: Int64 = 0
                var buffer = [UInt8](repeating: 0, count: 65536)
                func emit(_ bytes: ArraySlice<UInt8>, consumed: Int) {
                    number += 1
                    offset += Int64(consumed)
                    let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes
                    let text = String(validating: line, as: UTF8.self)  // the one copy of a long line
                    guard slots.take() else { return }
                    continuation.yield(Line(number: number, text: text, endOffset: offset))
                }
                while !cancelled.withLock({ $0 }) {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0, errno == EINTR { continue }
                    if count <= 0 { break }
                    pending += buffer[0..<count]
                    var start = 0
                    while let newline = pending[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                        emit(pending[start..<newline], consumed: newline + 1 - start)
                        start = newline + 1
                        scanned = 0
                    }
                    if pending.capacity > 1 << 20, pending.count - start < 1 << 16 {
                        pending = Array(pending[start...])  // a long line's buffer goes with it
                    } else {
                        pending.removeFirst(start)
                    }
                    scanned = pending.count  // a long line is scanned once, not once per read
                }
                if !pending.isEmpty, !cancelled.withLock({ $0 }) { emit(pending[...], consumed: pending.count) }
                continuation.finish()
            }
            thread.name = "ilotoki.stdin"
            thread.start()
        }
        return Lines(stream: stream, slots: slots)
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
