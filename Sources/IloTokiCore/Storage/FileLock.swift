import Foundation
import IloTokiLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive `flock` on a file, held while the object lives.
///
/// The kernel drops the lock when the process dies, so a killed downloader never leaves a
/// stale lock behind.
public final class FileLock: Sendable {
    /// The open descriptor holding the lock (valid until `release`).
    public let descriptor: Int32
    public let url: URL
    private let released = Locked(false)

    private init(descriptor: Int32, url: URL) {
        self.descriptor = descriptor
        self.url = url
    }

    /// Opens (creating it when asked) and locks `url` without waiting.
    /// - Returns: the lock, or `nil` when another descriptor (in this or another process) holds it.
    /// - Throws: `StoreError.cannotWrite` when the file cannot be opened.
    public static func acquire(_ url: URL, create: Bool) throws -> FileLock? {
        let flags = O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0)
        let fd = open(url.path, flags, 0o600)
        guard fd >= 0 else { throw StoreError.cannotWrite(url.path, reason: String(cString: strerror(errno))) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            close(fd)
            return nil
        }
        return FileLock(descriptor: fd, url: url)
    }

    /// Opens (creating it) and locks `url`, waiting while another descriptor holds it.
    /// - Throws: `StoreError.cannotWrite` when the file cannot be opened or locked.
    public static func wait(for url: URL) throws -> FileLock {
        let fd = open(url.path, O_RDWR | O_CLOEXEC | O_CREAT, 0o600)
        guard fd >= 0 else { throw StoreError.cannotWrite(url.path, reason: String(cString: strerror(errno))) }
        while flock(fd, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            close(fd)
            throw StoreError.cannotWrite(url.path, reason: reason)
        }
        return FileLock(descriptor: fd, url: url)
    }

    /// Whether some descriptor holds a lock on `url` right now.
    public static func isLocked(_ url: URL) -> Bool {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }

    /// Releases the lock and closes the descriptor.
    public func release() {
        guard !released.exchange(true) else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit { release() }
}
