import Foundation

#if canImport(Darwin)
    import Darwin
#endif
#if os(iOS) || os(visionOS)
    import os
#endif

/// How much memory the system can give a model right now.
public enum DeviceMemory {
    /// The platform's own figure, in bytes; `nil` where unknown.
    ///
    /// - iOS, iPadOS: `os_proc_available_memory()`, what this app may still use before the
    ///   system ends it (it grows with the increased-memory-limit entitlement).
    /// - macOS: free, inactive, purgeable and speculative pages from `host_statistics64`,
    ///   the memory the system can hand out without swapping.
    /// - Linux, Android: `MemAvailable` from /proc/meminfo.
    public static func available() -> Int64? {
        #if os(iOS) || os(visionOS)
            let bytes = os_proc_available_memory()
            return bytes > 0 ? Int64(bytes) : nil
        #elseif os(macOS)
            return machAvailable()
        #else
            return available(meminfo: URL(fileURLWithPath: "/proc/meminfo"))
        #endif
    }

    /// `MemAvailable` from a meminfo file, in bytes; `nil` when it cannot be read.
    public static func available(meminfo: URL) -> Int64? {
        guard let text = try? String(contentsOf: meminfo, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let fields = line.split(separator: " ")
            if fields.count >= 2, let kib = Int64(fields[1]) { return kib * 1024 }
        }
        return nil
    }

    #if os(macOS)
        private static func machAvailable() -> Int64? {
            var info = vm_statistics64_data_t()
            var count = mach_msg_type_number_t(MemoryLayout<vm_statistics64_data_t>.size / MemoryLayout<integer_t>.size)
            let result = withUnsafeMutablePointer(to: &info) { pointer in
                pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                    host_statistics64(mach_host_self(), HOST_VM_INFO64, $0, &count)
                }
            }
            guard result == KERN_SUCCESS else { return nil }
            var pageSize: vm_size_t = 0
            guard host_page_size(mach_host_self(), &pageSize) == KERN_SUCCESS else { return nil }
            let pages =
                UInt64(info.free_count) + UInt64(info.inactive_count) + UInt64(info.purgeable_count)
                + UInt64(info.speculative_count)
            return Int64(pages * UInt64(pageSize))
        }
    #endif

    /// Working memory a model needs beyond its weights: the 2048-token context, compute
    /// buffers and the app itself.
    public static let overhead: Int64 = 160 << 20
}
