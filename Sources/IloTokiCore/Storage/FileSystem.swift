#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

import Foundation

/// File-system figures.
public enum FileSystem {
    /// Bytes available to this user on the file system holding `url`.
    public static func freeBytes(at url: URL) -> Int64? {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
