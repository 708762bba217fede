import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// The bytes of a small file (history, settings, the added models, a catalog), read with
/// plain POSIX calls. `Data(contentsOf:)` on Linux leaks a 4 KiB buffer for every empty file
/// it reads (found by the history fuzzer, scripts/fuzz.sh), and these files are read again on
/// every change.
enum FileBytes {
    /// Why a file could not be read.
    enum Failure: Error, LocalizedError, Equatable {
        case noSuchFile
        case unreadable(String)

        var errorDescription: String? {
            switch self {
            case .noSuchFile: "there is no such file"
            case .unreadable(let reason): reason
            }
        }
    }

    /// Reads all of `url`.
    /// - Throws: `Failure.noSuchFile` when nothing is there, `Failure.unreadable` with the
    ///   system's reason otherwise (a directory, no permission, an I/O error).
    static func contents(of url: URL) throws -> Data {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    private static func failure(_ code: Int32) -> Failure {
        code == ENOENT ? .noSuchFile : .unreadable(String(cString: strerror(code)))
    }
}
