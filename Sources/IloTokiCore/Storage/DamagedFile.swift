import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the bytes of a file that cannot be read, so that nothing the user had is lost when
/// the app starts over with an empty history or default settings.
enum DamagedFile {
    /// Moves `url` aside to `<name>.damaged-<UTC time>-<random>` and returns where it went.
    ///
    /// The new name is claimed with `link`, which fails rather than replace a file that is
    /// already there, so two damaged files in one second (or two processes at once) never
    /// overwrite each other. Where hard links are not allowed the bytes are copied into a
    /// file created exclusively, flushed, and only then is the original removed.
    /// - Throws: `StoreError.cannotKeepDamagedFile` when the bytes cannot be kept anywhere;
    ///   the file is then left where it is, untouched.
    static func setAside(_ url: URL) throws -> URL {
        let directory = url.deletingLastPathComponent()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withYear, .withMonth, .withDay, .withTime]
        let stamp = formatter.string(from: Date())
        var lastError = "no name was free"
        for _ in 0..<8 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let aside = directory.appendingPathComponent("\(url.lastPathComponent).damaged-\(stamp)-\(suffix)")
            if link(url.path, aside.path) == 0 {
                unlink(url.path)
                AtomicFile.syncDirectory(directory)
                return aside
            }
            let error = errno
            if error == EEXIST { continue }
            if error == ENOENT { throw StoreError.cannotKeepDamagedFile(url.path, reason: "it disappeared while being read") }
            // File systems without hard links (and some sandboxes) say EPERM, ENOTSUP or EXDEV.
            do {
                try copyExclusively(url, to: aside)
                unlink(url.path)
                AtomicFile.syncDirectory(directory)
                return aside
            } catch let failure as CopyFailure where failure.exists {
                continue
            } catch let failure as CopyFailure {
                lastError = failure.reason
                break
            }
        }
        throw StoreError.cannotKeepDamagedFile(url.path, reason: lastError)
    }

    private struct CopyFailure: Error {
        let reason: String
        var exists = false
    }

    private static func copyExclusively(_ source: URL, to destination: URL) throws {
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw CopyFailure(reason: "it cannot be read")
        }
        let fd = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let error = errno
            throw CopyFailure(reason: String(cString: strerror(error)), exists: error == EEXIST)
        }
        var failure = AtomicFile.writeAll(fd, data)
        if failure == nil, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if let failure {
            unlink(destination.path)
            throw CopyFailure(reason: failure)
        }
    }
}
