import CIloTokiLLM

/// How many threads decode fastest on this device.
public enum PerformanceCores {
    /// The physical cores outside the slowest frequency group, at most 8 (see
    /// `ilotoki_llm_performance_core_count` for the rules).
    public static var count: Int { Int(ilotoki_llm_performance_core_count()) }

    /// The same rules over any sysfs tree, for tests.
    /// - Parameters:
    ///   - sysfsRoot: the directory holding `devices/system/cpu` (the real one is `/sys`).
    ///   - allowedCPUs: the size of the process's affinity set; `nil` reads the real one.
    public static func count(sysfsRoot: String, allowedCPUs: Int? = nil) -> Int {
        Int(ilotoki_llm_performance_core_count_in(sysfsRoot, Int32(allowedCPUs ?? 0)))
    }
}
