import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads one pipe to its end with blocking `read` calls on a thread of its own, keeping
/// every byte.
///
/// Nothing is registered with libdispatch's event loop: on Linux, tearing down
/// `FileHandle.readabilityHandler` (a dispatch read source) races that loop's bookkeeping
/// and can crash the whole process in `_dispatch_event_loop_drain` (swift-corelibs-libdispatch
/// issue 949), which took the test runner down with every test in it. A blocked `read` on a
/// thread has no such teardown: it returns 0 when every writer has closed the pipe (the child
/// ended, however it ended), and the thread closes the descriptor and ends.
public final class PipeReader: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var bytes = Data()
    private var ended = false

    /// Starts reading `handle` (the pipe's read end) until end of file. The reader owns the
    /// descriptor from now on: it alone reads and closes it.
    /// - Parameter name: the thread's name, as a debugger or a crash report shows it.
    public init(_ handle: FileHandle, name: String) {
        let thread = Thread { [self] in readToEnd(handle) }
        thread.name = name
        // Reads need little stack; many readers may run at once (two per child process).
        thread.stackSize = 256 * 1024
        thread.start()
    }

    private func readToEnd(_ handle: FileHandle) {
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                condition.lock()
                bytes.append(buffer, count: count)
                condition.broadcast()
                condition.unlock()
            } else if count < 0, errno == EINTR {
                continue
            } else {
                // 0: every writer closed the pipe. Any other error (EBADF, EIO) ends the read too.
                break
            }
        }
        try? handle.close()
        condition.lock()
        ended = true
        condition.broadcast()
        condition.unlock()
    }

    /// The bytes read so far.
    public var data: Data {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }

    /// Whether the pipe reached its end (every writer closed it).
    public var isAtEnd: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Waits until the pipe reaches its end, at most `timeout`; says whether it ended.
    public func end(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !isAtEnd {
            if ContinuousClock.now >= deadline { return false }
            // A cancelled task's sleep returns at once: sleep the thread instead of spinning.
            if (try? await Task.sleep(for: .milliseconds(2))) == nil { usleep(2000) }
        }
        return true
    }
}
