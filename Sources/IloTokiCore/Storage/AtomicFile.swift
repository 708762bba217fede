import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small files written so that a crash or a full disk never leaves half a file behind.
public enum AtomicFile {
    /// Writes `data` to a temporary file beside `url` (user-only permissions), flushes it to
    /// storage, then renames it over `url`.
    /// - Throws: `StoreError.cannotWrite` naming the file.
    public static func replace(_ url: URL, with data: Data) throws {
        let directory = url.deletingLastPathComponent()
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.cannotWrite(url.path, reason: String(cString: strerror(errno))) }
        var failure = writeAll(fd, data)
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil, rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw StoreError.cannotWrite(url.path, reason: failure)
        }
        syncDirectory(directory)
    }

    /// Writes every byte of `data` to `fd`; returns the error text on failure.
    static func writeAll(_ fd: Int32, _ data: Data) -> String? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> String? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
    }

    /// Makes a rename in `directory` durable.
    package static func syncDirectory(_ directory: URL) {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }
}
