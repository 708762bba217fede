import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Android)
    import Android
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-system figures.
public enum FileSystem {
    /// Where a program finds the data that comes with it, in order: beside it once installed
    /// (`<prefix>/bin/ilotoki` → `<prefix>/share/ilotoki/<installed>`), then in `build/<built>`
    /// of the checkout it was built in (`.build/<config>/…` or `.build/<triple>/<config>/…`).
    public static func bundledDataPlaces(executable: String, installed: String, built: String) -> [URL] {
        let bin = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let share = installed.isEmpty ? "../share/ilotoki" : "../share/ilotoki/\(installed)"
        return [share, "../../build/\(built)", "../../../build/\(built)"].map { bin.appendingPathComponent($0).standardizedFileURL }
    }

    /// The file this process runs, symbolic links resolved: where `bundledDataPlaces` starts.
    /// Not `CommandLine.arguments[0]`, which is only the name typed when a program is found
    /// through `PATH` (`ilotoki`, or `ilotoki-gtk` from a launcher).
    public static var runningExecutable: String {
        #if os(Linux) || os(Android)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
            if length > 0 { return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        #endif
        return Bundle.main.executablePath ?? CommandLine.arguments.first ?? ""
    }

    /// Bytes available to this user on the file system holding `url`.
    public static func freeBytes(at url: URL) -> Int64? {
        var info = statvfs()
        guard statvfs(url.path, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
