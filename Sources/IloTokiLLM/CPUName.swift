import Foundation

#if canImport(Darwin)
    import Darwin
#endif

/// The processor's name, as the system gives it: what a measurement made on this machine
/// (the output head's calibration) is kept under.
public enum CPUName {
    /// "AMD EPYC 7B13", "Intel(R) Xeon(R) CPU @ 2.20GHz", "Apple M2"; on arm64 Linux and
    /// Android, the SoC or the implementer and part numbers; "unknown" where none is told.
    public static var current: String {
        #if canImport(Darwin)
            var size = 0
            for name in ["machdep.cpu.brand_string", "hw.model"] where sysctlbyname(name, nil, &size, nil, 0) == 0 && size > 1 {
                var bytes = [CChar](repeating: 0, count: size)
                if sysctlbyname(name, &bytes, &size, nil, 0) == 0 { return String(cString: bytes) }
            }
            return "unknown"
        #else
            guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else { return "unknown" }
            return name(inCPUInfo: text)
        #endif
    }

    /// The name in the text of `/proc/cpuinfo`.
    public static func name(inCPUInfo text: String) -> String {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, fields[parts[0]] == nil { fields[parts[0]] = parts[1] }
        }
        if let model = fields["model name"], !model.isEmpty { return model }
        if let hardware = fields["Hardware"], !hardware.isEmpty { return hardware }
        if let implementer = fields["CPU implementer"], let part = fields["CPU part"] { return "arm \(implementer)/\(part)" }
        return "unknown"
    }
}
