import Foundation

/// How much memory the system can give a model right now.
public enum DeviceMemory {
    /// `MemAvailable` from /proc/meminfo (Linux, Android), in bytes; `nil` where unknown.
    public static func available(meminfo: URL = URL(fileURLWithPath: "/proc/meminfo")) -> Int64? {
        guard let text = try? String(contentsOf: meminfo, encoding: .utf8) else {
            #if canImport(Darwin)
                return Int64(ProcessInfo.processInfo.physicalMemory) / 2
            #else
                return nil
            #endif
        }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kib = Int64(fields[1]) { return kib * 1024 }
        }
        return nil
    }

    /// Working memory a model needs beyond its weights: the 2048-token context, compute
    /// buffers and the app itself.
    public static let overhead: Int64 = 160 << 20
}
