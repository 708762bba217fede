import Foundation
import IloTokiCore

/// Linux's word on the device's memory, for `TranslatorModel.setShortOfMemory`: the share of
/// time in which tasks waited for memory (pressure stall information: the cgroup's own
/// `memory.pressure` under cgroup v2, else the system's `/proc/pressure/memory`), read every
/// few seconds. Short of memory once the last 10 seconds' share reaches 10 %; no longer once
/// both the last 10 seconds' and the last minute's are under 1 %, so that one burst does not
/// switch the engine back and forth.
public final class MemoryPressureWatch: Sendable {
    /// The "some" line of a pressure file: percentages of time over 10 and 60 seconds.
    public struct Reading: Equatable, Sendable {
        public var last10Seconds: Double
        public var lastMinute: Double

        public init(last10Seconds: Double, lastMinute: Double) {
            self.last10Seconds = last10Seconds
            self.lastMinute = lastMinute
        }
    }

    /// From this share of the last 10 seconds on, the device is short of memory.
    public static let shortFrom = 10.0
    /// Under this share, over 10 seconds and over a minute, it is no longer.
    public static let relievedUnder = 1.0

    private let task: Task<Void, Never>

    /// Watches `file` and calls `report` (on the main actor) each time the word changes, the
    /// first time only once the device is short of memory, until `stop` (a watch nobody holds
    /// goes on: a front end's model lives as long as its process). `nil` where the kernel keeps
    /// no pressure figures (before Linux 4.20, or with them turned off) or they cannot be read.
    public init?(
        file: URL? = MemoryPressureWatch.pressureFile(), every: Duration = .seconds(2),
        report: @escaping @MainActor @Sendable (Bool) -> Void
    ) {
        guard let file, Self.read(file) != nil else { return nil }
        task = Task.detached(priority: .utility) {
            var short = false
            while !Task.isCancelled {
                if let reading = Self.read(file) {
                    let now = Self.isShort(reading, wasShort: short)
                    if now != short {
                        short = now
                        await report(now)
                    }
                }
                try? await Task.sleep(for: every)
            }
        }
    }

    /// Stops watching.
    public func stop() { task.cancel() }

    /// The word after `reading`, given the word before.
    public static func isShort(_ reading: Reading, wasShort: Bool) -> Bool {
        if wasShort { return !(reading.last10Seconds < relievedUnder && reading.lastMinute < relievedUnder) }
        return reading.last10Seconds >= shortFrom
    }

    /// The "some" line of a pressure file ("some avg10=1.25 avg60=0.40 avg300=0.10 total=…").
    public static func parse(_ text: String) -> Reading? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("some ") }) else { return nil }
        var values: [Substring: Double] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Double(parts[1]) { values[parts[0]] = value }
        }
        guard let last10 = values["avg10"], let last60 = values["avg60"] else { return nil }
        return Reading(last10Seconds: last10, lastMinute: last60)
    }

    static func read(_ file: URL) -> Reading? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        return parse(String(decoding: data, as: UTF8.self))
    }

    /// The pressure file that speaks for this process: its cgroup's (v2) where there is one,
    /// else the system's; `nil` where neither exists.
    public static func pressureFile() -> URL? {
        if let cgroups = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8),
            let line = cgroups.split(separator: "\n").first(where: { $0.hasPrefix("0::") })
        {
            let own = URL(fileURLWithPath: "/sys/fs/cgroup" + line.dropFirst(3)).appendingPathComponent("memory.pressure")
            if FileManager.default.isReadableFile(atPath: own.path) { return own }
        }
        let system = URL(fileURLWithPath: "/proc/pressure/memory")
        return FileManager.default.isReadableFile(atPath: system.path) ? system : nil
    }
}
