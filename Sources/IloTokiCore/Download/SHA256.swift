import CSHA256
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// SHA-256, for verifying downloaded models (Linux has no CryptoKit).
public struct SHA256: Sendable {
    private var context = ilotoki_sha256()

    public init() {
        ilotoki_sha256_init(&context)
    }

    /// Adds bytes to the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        ilotoki_sha256_update(&context, base, bytes.count)
    }

    public mutating func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest as 64 lowercase hexadecimal digits. The hash starts over afterwards.
    public mutating func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: 32)
        ilotoki_sha256_final(&context, &digest)
        ilotoki_sha256_init(&context)
        return digest.map { String(format: "%02x", $0) }.joined()
    }

    /// The hash of `data`.
    public static func hex(of data: Data) -> String {
        var hash = SHA256()
        hash.update(data)
        return hash.finalize()
    }

    /// Whether the CPU's SHA instructions are in use (seconds for a 1.4 GB model either way).
    static var usesCPUExtensions: Bool { ilotoki_sha256_uses_cpu_extensions() }

    /// Hashes a file on the calling thread, reading it in large blocks.
    /// - Throws: `DownloadError.cannotRead` naming the file.
    public static func hash(fileAt url: URL) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DownloadError.cannotRead(url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var hash = SHA256()
        let size = 4 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = read(fd, buffer.baseAddress, size)
            if count < 0 {
                if errno == EINTR { continue }
                throw DownloadError.cannotRead(url.path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return hash.finalize()
    }

    /// Hashes a file on a thread of its own, off the cooperative pool (a model takes seconds).
    public static func hashInBackground(fileAt url: URL) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try hash(fileAt: url) })
            }
            thread.name = "ilotoki.sha256"
            thread.start()
        }
    }
}
